//! What the engine asks of the operating system beyond Rust's std, declared by hand (no
//! extra crates): ignoring SIGINT, which XBoard sends to engines and which would otherwise
//! kill a Rust process (Unix), the memory available for the table (Linux: /proc/meminfo;
//! Windows: GlobalMemoryStatusEx), and whether stdin is a console.

use std::io::IsTerminal;

#[cfg(unix)]
unsafe extern "C" {
    fn signal(signum: i32, handler: usize) -> usize;
}

#[cfg(unix)]
const SIGINT: i32 = 2;
#[cfg(unix)]
const SIG_IGN: usize = 1;

/// Ignore SIGINT for the rest of the process's life (Windows has no SIGINT to ignore: a
/// GUI's Ctrl-C reaches only console programs, and WinBoard engines run without a console).
pub fn ignore_sigint() {
    #[cfg(unix)]
    // SAFETY: `signal` is the C library's, called with a valid signal number and the
    // constant SIG_IGN (no handler code runs, so there are no async-signal-safety concerns);
    // it only changes the process's signal disposition.
    unsafe {
        signal(SIGINT, SIG_IGN);
    }
}

/// Whether standard input is a terminal or console (a person typing rather than a GUI's
/// pipe), on every platform.
pub fn stdin_is_terminal() -> bool {
    std::io::stdin().is_terminal()
}

/// The memory the system can give a new allocation now, in MB, or `None` where it cannot
/// be asked.
pub fn available_memory_mb() -> Option<u64> {
    available_memory_bytes().map(|bytes| bytes / (1024 * 1024))
}

/// `MemAvailable` from `/proc/meminfo`.
#[cfg(not(windows))]
fn available_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// Windows' MEMORYSTATUSEX (sysinfoapi.h).
#[cfg(windows)]
#[repr(C)]
struct MemoryStatusEx {
    length: u32,
    memory_load: u32,
    total_phys: u64,
    avail_phys: u64,
    total_page_file: u64,
    avail_page_file: u64,
    total_virtual: u64,
    avail_virtual: u64,
    avail_extended_virtual: u64,
}

#[cfg(windows)]
#[link(name = "kernel32")]
unsafe extern "system" {
    fn GlobalMemoryStatusEx(buffer: *mut MemoryStatusEx) -> i32;
}

/// The physical memory available now (`ullAvailPhys` of GlobalMemoryStatusEx).
#[cfg(windows)]
fn available_memory_bytes() -> Option<u64> {
    let mut status = MemoryStatusEx {
        length: std::mem::size_of::<MemoryStatusEx>() as u32,
        memory_load: 0,
        total_phys: 0,
        avail_phys: 0,
        total_page_file: 0,
        avail_page_file: 0,
        total_virtual: 0,
        avail_virtual: 0,
        avail_extended_virtual: 0,
    };
    // SAFETY: `status` is a live, writable MEMORYSTATUSEX laid out as the C struct
    // (`repr(C)`, nine fields as in sysinfoapi.h) with `dwLength` set to its size, as the
    // function requires; it writes only into that struct and returns 0 on failure.
    let ok = unsafe { GlobalMemoryStatusEx(&mut status) };
    (ok != 0).then_some(status.avail_phys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_available_memory_is_known_and_plausible() {
        // Linux (CI) and Windows both answer; 16 MB to 64 TB covers any machine running this.
        let mb = available_memory_mb().expect("the available memory");
        assert!((16..64 << 20).contains(&mb), "{mb} MB");
    }
}
