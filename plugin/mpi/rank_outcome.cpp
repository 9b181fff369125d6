#include "plugin/mpi/rank_outcome.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "base/settings.hpp"
#include "zgpu/error.hpp"

namespace zgpu::mpi {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Frees the layer's duplicate of a communicator with it.
int free_duplicate(MPI_Comm, int, void* duplicate, void*)
{
    auto* comm = static_cast<MPI_Comm*>(duplicate);
    MPI_Comm_free(comm);
    delete comm;
    return MPI_SUCCESS;
}

}  // namespace

MPI_Comm layer_comm(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) return comm;
    static int key = MPI_KEYVAL_INVALID;
    static std::once_flag once;
    std::call_once(once, [] { MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_duplicate, &key, nullptr); });
    MPI_Comm* duplicate = nullptr;
    int found = 0;
    MPI_Comm_get_attr(comm, key, &duplicate, &found);
    if (found) return *duplicate;
    duplicate = new MPI_Comm;
    const double limit = answer_limit(0);
    MPI_Request request;
    MPI_Comm_idup(comm, duplicate, &request);
    wait_for(request, comm, "making the layer's own communicator", limit);
    MPI_Comm_set_attr(comm, key, duplicate);
    return *duplicate;
}

RankOf rank_of(MPI_Comm comm)
{
    RankOf r{};
    MPI_Comm_rank(comm, &r.rank);
    MPI_Comm_size(comm, &r.size);
    return r;
}

double answer_limit(double part_seconds)
{
    constexpr double kUnset = 600;
    double timeout = kUnset;
    try {
        timeout = settings::mpi_timeout();
    } catch (const Error&) {
    }
    return timeout + 2 * part_seconds;
}

void wait_for(MPI_Request& request, MPI_Comm comm, const char* what, double limit)
{
    const Clock::time_point start = Clock::now();
    for (int done = 0;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        const double waited = seconds_since(start);
        if (waited > limit) break;
        // Polled at once for short waits; then every 50 microseconds, so that waiting ranks
        // leave the processors to working ones where ranks share them.
        if (waited < 1e-4) std::this_thread::yield();
        else std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    const RankOf me = rank_of(comm);
    std::fprintf(stderr,
                 "zgpu: rank %d of %d: no answer from the other ranks within %.0f s (ZGPU_MPI_TIMEOUT beyond twice the "
                 "part's time) %s; a rank stopped answering: ending the job\n",
                 me.rank, me.size, limit, what);
    MPI_Abort(comm, 1);
}

void broadcast(void* data, int count, MPI_Datatype type, int root, MPI_Comm comm, const char* what)
{
    const double limit = answer_limit(0);
    MPI_Request request;
    MPI_Ibcast(data, count, type, root, comm, &request);
    wait_for(request, comm, what, limit);
}

void send(const void* data, int count, MPI_Datatype type, int to, MPI_Comm comm, const char* what, double expected_seconds)
{
    const double limit = answer_limit(expected_seconds);
    MPI_Request request;
    MPI_Isend(data, count, type, to, 0, comm, &request);
    wait_for(request, comm, what, limit);
}

void receive(void* data, int count, MPI_Datatype type, int from, MPI_Comm comm, const char* what, double expected_seconds)
{
    const double limit = answer_limit(expected_seconds);
    MPI_Request request;
    MPI_Irecv(data, count, type, from, 0, comm, &request);
    wait_for(request, comm, what, limit);
}

void on_every_rank(MPI_Comm comm, const std::function<void()>& part, double expected_seconds)
{
    const RankOf me = rank_of(comm);
    std::string message;
    bool failed = false;
    const Clock::time_point start = Clock::now();
    try {
        part();
    } catch (const std::exception& e) {
        failed = true;
        message = e.what();
    } catch (...) {
        failed = true;
        message = "unknown error";
    }
    // The lowest failed rank, or size where none failed; then that rank's message to all.
    int mine = failed ? me.rank : me.size, first = me.size;
    const double limit = answer_limit(std::max(seconds_since(start), expected_seconds));
    MPI_Request request;
    MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm, &request);
    wait_for(request, comm, "waiting for their parts", limit);
    if (first == me.size) return;
    int length = int(message.size());
    broadcast(&length, 1, MPI_INT, first, comm, "reading a failed rank's message");
    message.resize(std::size_t(length));
    broadcast(message.data(), length, MPI_CHAR, first, comm, "reading a failed rank's message");
    throw Error(message + " (on rank " + std::to_string(first) + " of " + std::to_string(me.size) + ")");
}

}  // namespace zgpu::mpi
