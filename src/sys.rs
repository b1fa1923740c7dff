//! The two C library calls the engine needs, declared by hand (no extra crates): ignoring
//! SIGINT, which XBoard sends to engines and which would otherwise kill a Rust process, and
//! asking whether stdin is a terminal.

#[cfg(unix)]
unsafe extern "C" {
    fn signal(signum: i32, handler: usize) -> usize;
    fn isatty(fd: i32) -> i32;
}

#[cfg(unix)]
const SIGINT: i32 = 2;
#[cfg(unix)]
const SIG_IGN: usize = 1;

/// Ignore SIGINT for the rest of the process's life.
pub fn ignore_sigint() {
    #[cfg(unix)]
    // SAFETY: `signal` is the C library's, called with a valid signal number and the
    // constant SIG_IGN (no handler code runs, so there are no async-signal-safety concerns);
    // it only changes the process's signal disposition.
    unsafe {
        signal(SIGINT, SIG_IGN);
    }
}

/// Whether standard input is a terminal (a person typing rather than a GUI's pipe).
pub fn stdin_is_terminal() -> bool {
    #[cfg(unix)]
    {
        // SAFETY: `isatty` only inspects file descriptor 0 and has no other effect; any
        // descriptor value is allowed (an invalid one just returns 0).
        unsafe { isatty(0) == 1 }
    }
    #[cfg(not(unix))]
    {
        false
    }
}
