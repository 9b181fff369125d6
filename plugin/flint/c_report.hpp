// The C entry points' common frame (c_api.cpp, c_api_modular.cpp): the C++ call run with its
// errors turned into -1 and zgpu_last_error's message.
#pragma once

#include <exception>
#include <string>
#include <string_view>

#include "zgpu/backend.hpp"

namespace zgpu {

// Why the last C call on this thread failed (defined in c_api.cpp).
extern thread_local std::string c_last_error;

// The message as the C caller sees it: named after the function called (zgpu_fmpz_vec_add: ...),
// not after the C++ one it forwards to (zgpu: fmpz_vec_add: ...).
inline std::string c_message(std::string_view function, std::string_view what)
{
    const std::string_view cxx_name = function.substr(std::string_view("zgpu_").size());
    if (what.starts_with("zgpu: ")) what.remove_prefix(std::string_view("zgpu: ").size());
    if (what.starts_with(cxx_name) && what.substr(cxx_name.size()).starts_with(": ")) what.remove_prefix(cxx_name.size() + 2);
    return std::string(function) + ": " + std::string(what);
}

// Runs the call for the C function named `function`. The backend that runs it records itself;
// a call refused before that leaves none.
template <class Call>
int report(std::string_view function, Call call) noexcept
{
    set_last_backend(Backend::none);
    try {
        call();
        c_last_error.clear();
        return 0;
    } catch (const std::exception& e) {
        c_last_error = c_message(function, e.what());
    } catch (...) {
        c_last_error = c_message(function, "unknown error");
    }
    return -1;
}

}  // namespace zgpu
