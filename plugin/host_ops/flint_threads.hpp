// FLINT's own threads for one call of its polynomial products: FLINT 2.9 and 3 multiply long
// polynomials with threads from FLINT's pool (fft's mfa transforms, fft_small's convolutions),
// as many as flint_get_num_threads() allows on the calling thread, which is 1 unless the
// program set more.
#pragma once

namespace zgpu {

// While one lives, FLINT calls on this thread may use up to `threads` threads (the caller
// included): the pool is grown to threads - 1 workers if it is smaller and not in use (else
// fewer are used), and this thread's own limit is restored at the end. A limit the program set
// higher is lowered to `threads` for the call.
class FlintThreads {
public:
    explicit FlintThreads(unsigned threads);
    ~FlintThreads();
    FlintThreads(const FlintThreads&) = delete;
    FlintThreads& operator=(const FlintThreads&) = delete;

private:
    int old_workers_;
};

}  // namespace zgpu
