//! What the engine asks of the operating system beyond Rust's std, declared by hand (no
//! extra crates): ignoring SIGINT, which XBoard sends to engines, and SIGXFSZ, which a file
//! size limit sends at the log's next line (either would kill a Rust process; Unix), the
//! default SIGPIPE for the tools (a reader that stops early ends them quietly), the memory
//! available for the table (Linux: /proc/meminfo; Windows: GlobalMemoryStatusEx), whether
//! stdin is a console, and the CPU time the process has used (64-bit Linux: getrusage;
//! Windows: GetProcessTimes; elsewhere unknown), and 2 MB pages for the transposition table
//! (Linux: madvise).

use std::io::IsTerminal;

#[cfg(unix)]
unsafe extern "C" {
    fn signal(signum: i32, handler: usize) -> usize;
}

#[cfg(unix)]
const SIGINT: i32 = 2;
/// SIGXFSZ on Linux (but MIPS), macOS and the BSDs.
#[cfg(all(unix, not(any(target_arch = "mips", target_arch = "mips64"))))]
const SIGXFSZ: i32 = 25;
#[cfg(unix)]
const SIG_IGN: usize = 1;
/// SIGPIPE is 13 on Linux (MIPS too), macOS and the BSDs.
#[cfg(unix)]
const SIGPIPE: i32 = 13;
#[cfg(unix)]
const SIG_DFL: usize = 0;

/// Ignore SIGINT and SIGXFSZ for the rest of the process's life. A log file that reaches
/// the file size limit (`ulimit -f`) then fails with EFBIG, which the log reports once and
/// plays on, instead of ending the game. (Windows has neither: a GUI's Ctrl-C reaches only
/// console programs, and WinBoard engines run without a console.)
pub fn ignore_signals() {
    #[cfg(unix)]
    // SAFETY: `signal` is the C library's, called with valid signal numbers and the
    // constant SIG_IGN (no handler code runs, so there are no async-signal-safety concerns);
    // it only changes the process's signal disposition.
    unsafe {
        signal(SIGINT, SIG_IGN);
        #[cfg(not(any(target_arch = "mips", target_arch = "mips64")))]
        signal(SIGXFSZ, SIG_IGN);
    }
}

/// Let SIGPIPE end the process, as it ends `cat` or `grep`, for the tools: Rust ignores it,
/// so `ironwood perft 6 | head` would panic on the first line after `head` left. A protocol
/// session keeps it ignored: there a lost GUI is a write error the session logs. (Windows
/// has no SIGPIPE; there a closed pipe is still an error.)
pub fn end_quietly_on_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: as in `ignore_signals`: a valid signal number and the constant SIG_DFL, no
    // handler code; only the process's signal disposition changes.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
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

/// User plus system CPU time of the whole process (all threads) so far, in seconds, or
/// `None` where it cannot be asked (the caller falls back on wall time).
pub fn process_cpu_seconds() -> Option<f64> {
    process_cpu_seconds_impl()
}

/// `struct rusage` of 64-bit Linux: two `struct timeval` (two 64-bit fields each), then
/// fourteen `long` counters.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
#[repr(C)]
struct Rusage {
    user: [i64; 2],
    system: [i64; 2],
    counters: [i64; 14],
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
unsafe extern "C" {
    fn getrusage(who: i32, usage: *mut Rusage) -> i32;
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn process_cpu_seconds_impl() -> Option<f64> {
    const RUSAGE_SELF: i32 = 0;
    let mut usage = Rusage {
        user: [0; 2],
        system: [0; 2],
        counters: [0; 14],
    };
    // SAFETY: `usage` is a live, writable struct laid out as 64-bit Linux's `struct rusage`
    // (`repr(C)`, 18 eight-byte fields); getrusage writes only into it and returns 0 on
    // success.
    let ok = unsafe { getrusage(RUSAGE_SELF, &mut usage) } == 0;
    let seconds = |t: [i64; 2]| t[0] as f64 + t[1] as f64 / 1e6;
    ok.then(|| seconds(usage.user) + seconds(usage.system))
}

/// Windows' FILETIME: 100-nanosecond units, low half first.
#[cfg(windows)]
#[repr(C)]
struct FileTime {
    low: u32,
    high: u32,
}

#[cfg(windows)]
#[link(name = "kernel32")]
unsafe extern "system" {
    fn GetCurrentProcess() -> isize;
    fn GetProcessTimes(
        process: isize,
        creation: *mut FileTime,
        exit: *mut FileTime,
        kernel: *mut FileTime,
        user: *mut FileTime,
    ) -> i32;
}

#[cfg(windows)]
fn process_cpu_seconds_impl() -> Option<f64> {
    let zero = || FileTime { low: 0, high: 0 };
    let (mut creation, mut exit, mut kernel, mut user) = (zero(), zero(), zero(), zero());
    // SAFETY: GetCurrentProcess returns a pseudo-handle that needs no closing; the four
    // pointers are live, writable FILETIMEs (`repr(C)`, two u32 as in minwinbase.h), which
    // is all GetProcessTimes writes; it returns 0 on failure.
    let ok = unsafe {
        GetProcessTimes(
            GetCurrentProcess(),
            &mut creation,
            &mut exit,
            &mut kernel,
            &mut user,
        )
    } != 0;
    let seconds = |t: &FileTime| (u64::from(t.high) << 32 | u64::from(t.low)) as f64 / 1e7;
    ok.then(|| seconds(&kernel) + seconds(&user))
}

#[cfg(not(any(all(target_os = "linux", target_pointer_width = "64"), windows)))]
fn process_cpu_seconds_impl() -> Option<f64> {
    None
}

/// The size of the large pages `advise_huge_pages` asks for.
pub const HUGE_PAGE_BYTES: usize = 2 * 1024 * 1024;

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
unsafe extern "C" {
    fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
}

/// Asks that the whole 2 MB pages inside `memory` be backed by transparent huge pages (Linux
/// in its default `madvise` mode gives them only when asked): a table probed at random then
/// misses the TLB far less. Only a hint: the contents stay what they are, and where it is
/// refused or unknown nothing changes. Pages already touched keep their small pages, so it
/// is asked before the memory is first written.
pub fn advise_huge_pages<T>(memory: &mut [T]) {
    let start = memory.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    let first = start.next_multiple_of(HUGE_PAGE_BYTES);
    let last = end / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
    if last <= first {
        return;
    }
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    {
        const MADV_HUGEPAGE: i32 = 14;
        // SAFETY: [first, last) lies inside `memory`, which this function borrows mutably,
        // and starts on a page boundary as madvise requires; MADV_HUGEPAGE changes how the
        // kernel backs those pages, never their contents, and a refusal (an error return)
        // leaves everything as it was.
        unsafe {
            madvise(first as *mut u8, last - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_cpu_time_is_known_and_grows_with_work() {
        let before = process_cpu_seconds().expect("the CPU time");
        let mut x = 1u64;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(300) {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        }
        std::hint::black_box(x);
        let after = process_cpu_seconds().expect("the CPU time");
        // Busy for 0.3 s of wall time: some of it is this process's, however loaded the
        // machine (the test runner's other threads add to it, never take away).
        assert!(after > before, "{before} -> {after}");
        assert!(before >= 0.0 && after < 1e7, "{before} -> {after}");
    }

    #[test]
    fn the_available_memory_is_known_and_plausible() {
        // Linux (CI) and Windows both answer; 16 MB to 64 TB covers any machine running this.
        let mb = available_memory_mb().expect("the available memory");
        assert!((16..64 << 20).contains(&mb), "{mb} MB");
    }
}
