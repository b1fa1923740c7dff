//! The transposition table: buckets of four entries, each two `AtomicU64`s (key xor data,
//! data) so that threads share it without locks; a torn entry fails the key check and is
//! simply a miss. Mate scores are stored relative to the node, not the root.

use crate::board::Move;
use std::sync::atomic::{AtomicU64, Ordering};

use super::score::{MAX_PLY, TB_WIN_BOUND};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// Score is a lower bound (the node failed high).
    Lower,
    /// Score is an upper bound (the node failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub best_move: Move,
    pub score: i32,
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The node was searched with an open window when it was stored, or stored by a node
    /// that had been so before (Stockfish's `ttPv`).
    pub was_pv: bool,
}

struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET_SIZE: usize = 4;

/// A bucket's bytes: one cache line, so a probe reads one line and a prefetch fetches it whole.
const BUCKET_BYTES: usize = 64;

/// Entries allocated beyond the table's own, so that bucket 0 can start on a huge page.
const LEAD_ROOM: usize = crate::sys::HUGE_PAGE_BYTES / std::mem::size_of::<Entry>();

/// The entry of a table allocated at `address` at which bucket 0 starts: the first on a
/// 2 MB boundary (a huge page's, so a cache line's too), or the first entry where the
/// allocation is not aligned to a whole entry (never seen: allocators align to 16 bytes).
fn first_aligned_entry(address: usize) -> usize {
    let gap = address.next_multiple_of(crate::sys::HUGE_PAGE_BYTES) - address;
    let entry = std::mem::size_of::<Entry>();
    if gap.is_multiple_of(entry) {
        gap / entry
    } else {
        0
    }
}

/// `len` empty entries taken zeroed from the allocator (calloc), which hands a large
/// table's pages over untouched: they cost no memory until used, and can still be given
/// huge pages. (Filling a `Vec` with `Entry::default()` compiles to the same call only
/// when the optimiser sees through it, which a small change elsewhere in `new` undid.)
fn zeroed_entries(len: usize) -> Vec<Entry> {
    let layout = std::alloc::Layout::array::<Entry>(len).expect("a table that fits in memory");
    // SAFETY: `layout` is `len` entries' (never zero bytes: `len` > 0), allocated with the
    // global allocator, which is what `Vec` frees with; a null pointer is handed to
    // `handle_alloc_error` before any use. All-zero bytes are a valid `Entry` (two
    // `AtomicU64` of 0, the same representation as `u64`), so all `len` values are
    // initialised, and length and capacity are both `len`.
    unsafe {
        let entries = std::alloc::alloc_zeroed(layout).cast::<Entry>();
        if entries.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(entries, len, len)
    }
}

pub struct TranspositionTable {
    /// Plain zeroed entries (`zeroed_entries`), so that the allocator hands the table over
    /// untouched (a table of 64-aligned buckets is written through at creation: seconds,
    /// and all of its memory at once, for a hash of many gigabytes).
    entries: Vec<Entry>,
    /// The entry at which bucket 0 starts (`first_aligned_entry`).
    first: usize,
    buckets: usize,
    /// Incremented per search so old entries are replaced first.
    age: u8,
}

impl Bound {
    /// Does a score with this bound say more than `eval` about the position's value: an
    /// exact score, a lower bound above `eval` or an upper bound below it?
    #[inline]
    pub fn says_more_than(self, score: i32, eval: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > eval,
            Bound::Upper => score < eval,
        }
    }
}

impl TtHit {
    /// Does the stored bound settle a node searched with this window?
    #[inline]
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

// data layout: move 16 | score 16 | eval 16 | depth 7 | was PV 1 | bound 2 | age 6
#[allow(clippy::too_many_arguments)]
fn pack(m: Move, score: i32, eval: i32, depth: i32, was_pv: bool, bound: Bound, age: u8) -> u64 {
    let bound_bits = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(m.raw())
        | (u64::from(score as i16 as u16) << 16)
        | (u64::from(eval as i16 as u16) << 32)
        | (u64::from(depth.clamp(0, MAX_PLY as i32 - 1) as u8) << 48)
        | (u64::from(was_pv) << 55)
        | (bound_bits << 56)
        | (u64::from(age & 63) << 58)
}

fn unpack(data: u64) -> Option<TtHit> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(TtHit {
        best_move: Move::from_raw(data as u16),
        score: i32::from((data >> 16) as u16 as i16),
        static_eval: i32::from((data >> 32) as u16 as i16),
        depth: entry_depth(data),
        bound,
        was_pv: (data >> 55) & 1 == 1,
    })
}

fn entry_age(data: u64) -> u8 {
    ((data >> 58) & 63) as u8
}

fn entry_depth(data: u64) -> i32 {
    i32::from((data >> 48) as u8 & 0x7f)
}

/// Mate and tablebase scores count plies from the root while searching but from the node in
/// the table.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl TranspositionTable {
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let buckets = (bytes / BUCKET_BYTES).max(1);
        // Room to start bucket 0 on a 2 MB boundary, so that every huge page the table spans
        // is whole; the entries before it are never touched and take no memory.
        let mut entries = zeroed_entries(buckets * BUCKET_SIZE + LEAD_ROOM);
        let first = first_aligned_entry(entries.as_ptr() as usize);
        crate::sys::advise_huge_pages(&mut entries[first..first + buckets * BUCKET_SIZE]);
        TranspositionTable {
            entries,
            first,
            buckets,
            age: 0,
        }
    }

    pub fn size_mb(&self) -> usize {
        self.buckets * BUCKET_BYTES / (1024 * 1024)
    }

    pub fn clear(&mut self) {
        // Exclusive access: plain writes, which the compiler turns into a memset.
        let used = self.first..self.first + self.buckets * BUCKET_SIZE;
        for e in &mut self.entries[used] {
            *e.check.get_mut() = 0;
            *e.data.get_mut() = 0;
        }
        self.age = 0;
    }

    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Entry] {
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        let start = self.first + index * BUCKET_SIZE;
        &self.entries[start..start + BUCKET_SIZE]
    }

    /// Starts loading `key`'s bucket into the cache, so that the probe of a position made
    /// a little earlier does not wait on memory (most of a probe's time was that wait).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = self.bucket(key).as_ptr();
            // SAFETY: a prefetch is only a hint: it never faults and changes no memory, and
            // the address is that of a live bucket of the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        for e in self.bucket(key) {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key {
                let mut hit = unpack(data)?;
                hit.score = score_from_tt(hit.score, ply);
                return Some(hit);
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mut best_move: Move,
        score: i32,
        static_eval: i32,
        depth: i32,
        bound: Bound,
        was_pv: bool,
    ) {
        debug_assert!(ply < MAX_PLY);
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for e in bucket {
            let data = e.data.load(Ordering::Relaxed);
            let same = e.check.load(Ordering::Relaxed) ^ data == key;
            if same || data == 0 {
                victim = e;
                if same {
                    let shallower = bound != Bound::Exact && depth + 2 < entry_depth(data);
                    if best_move.is_null() {
                        // Keep the old best move when the new search found none.
                        if shallower {
                            return;
                        }
                        best_move = Move::from_raw(data as u16);
                    } else if shallower && entry_age(data) == self.age {
                        return;
                    }
                }
                break;
            }
            // Prefer replacing shallow entries from older searches.
            let age_gap = i32::from((self.age + 64 - entry_age(data)) & 63);
            let worth = entry_depth(data) - 8 * age_gap;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let packed = pack(
            best_move,
            score_to_tt(score, ply),
            static_eval,
            depth,
            was_pv,
            bound,
            self.age,
        );
        victim.data.store(packed, Ordering::Relaxed);
        victim.check.store(key ^ packed, Ordering::Relaxed);
    }

    /// Permille of the first thousand buckets' entries used in this search (for `hashfull`).
    pub(crate) fn hashfull(&self) -> usize {
        let sample = self.buckets.min(1000);
        let mut used = 0;
        let start = self.first;
        for e in &self.entries[start..start + sample * BUCKET_SIZE] {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && entry_age(data) == self.age {
                used += 1;
            }
        }
        used * 1000 / (sample * BUCKET_SIZE).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveKind, Square};

    #[test]
    fn the_table_starts_on_a_huge_page() {
        let (huge, entry) = (crate::sys::HUGE_PAGE_BYTES, std::mem::size_of::<Entry>());
        for address in [0, 16, 64, 4096 + 16, huge - 16, huge, 7 * huge + 48] {
            let first = first_aligned_entry(address);
            assert!(first <= LEAD_ROOM);
            assert_eq!((address + first * entry) % huge, 0, "{address}");
        }
        assert_eq!(first_aligned_entry(24), 0);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.bucket(0).as_ptr() as usize % huge, 0);
    }

    #[test]
    fn every_bucket_is_one_cache_line() {
        let tt = TranspositionTable::new(1);
        assert_eq!(std::mem::size_of::<Entry>() * BUCKET_SIZE, BUCKET_BYTES);
        for key in [0, 1 << 20, 0xDEAD_BEEF_0000_0000, u64::MAX] {
            assert_eq!(tt.bucket(key).as_ptr() as usize % BUCKET_BYTES, 0);
        }
        // A prefetch is a hint only: the entry reads the same after it.
        let m = Move::new(Square::new(12), Square::new(28), MoveKind::DoublePush);
        tt.store(0x1234_5678, 0, m, 10, 20, 5, Bound::Exact, false);
        tt.prefetch(0x1234_5678);
        assert_eq!(tt.probe(0x1234_5678, 0).map(|hit| hit.score), Some(10));
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(Square::new(12), Square::new(28), MoveKind::DoublePush);
        tt.store(0xDEAD_BEEF, 3, m, -1234, 56, 7, Bound::Lower, true);
        let hit = tt.probe(0xDEAD_BEEF, 3).unwrap();
        assert_eq!(hit.best_move, m);
        assert_eq!(hit.score, -1234);
        assert_eq!(hit.static_eval, 56);
        assert_eq!(hit.depth, 7);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(hit.was_pv);
        tt.store(
            0xDEAD_BEEF,
            3,
            m,
            -1234,
            56,
            MAX_PLY as i32 - 1,
            Bound::Upper,
            false,
        );
        let hit = tt.probe(0xDEAD_BEEF, 3).unwrap();
        assert_eq!(
            (hit.depth, hit.bound, hit.was_pv),
            (MAX_PLY as i32 - 1, Bound::Upper, false)
        );
        assert!(tt.probe(0xDEAD_BEEE, 3).is_none());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let mate_in_5_from_root = super::super::score::MATE - 5;
        tt.store(
            42,
            2,
            Move::NULL,
            mate_in_5_from_root,
            0,
            3,
            Bound::Exact,
            false,
        );
        // Seen again at ply 4: the mate is two plies further from the root.
        assert_eq!(tt.probe(42, 4).unwrap().score, mate_in_5_from_root - 2);
    }
}
