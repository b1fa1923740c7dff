//! Work shared over threads for the tools (training, tuning, scoring, verifying): each thread
//! takes the next item when it finishes one, and results come back in the items' order, so
//! a tool's output does not depend on how many threads made it.

use std::sync::Mutex;

/// Calls `work(i, &mut items[i])` for every item on up to `threads` threads; returns when
/// all are done. On one thread (or one item) the items are worked in order on this thread.
pub fn for_each<T: Send>(items: &mut [T], threads: usize, work: impl Fn(usize, &mut T) + Sync) {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        items
            .iter_mut()
            .enumerate()
            .for_each(|(i, item)| work(i, item));
        return;
    }
    let queue = Mutex::new(items.iter_mut().enumerate());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    // The lock is held only to take the next item, not while it is worked.
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some((i, item)) = next else { break };
                    work(i, item);
                }
            });
        }
    });
}

/// `f` of every item on up to `threads` threads, in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let mut slots: Vec<(&T, Option<R>)> = items.iter().map(|item| (item, None)).collect();
    for_each(&mut slots, threads, |_, (item, result)| {
        *result = Some(f(item))
    });
    slots
        .into_iter()
        .map(|(_, result)| result.expect("for_each works every item"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_the_items_order_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let expected: Vec<u64> = items.iter().map(|x| x * x + 1).collect();
        for threads in [1, 2, 3, 8, 5000] {
            assert_eq!(
                map(&items, threads, |x| x * x + 1),
                expected,
                "{threads} threads"
            );
        }
        assert!(map(&Vec::<u64>::new(), 4, |x| *x).is_empty());
    }

    #[test]
    fn for_each_works_every_item_once_with_its_index() {
        for threads in [1, 2, 7] {
            let mut items = vec![0usize; 333];
            for_each(&mut items, threads, |i, item| *item += i + 1);
            assert!(items.iter().enumerate().all(|(i, &x)| x == i + 1));
        }
    }
}
