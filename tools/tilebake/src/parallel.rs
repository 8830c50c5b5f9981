//! Independent jobs on every core, their results in job order: the bake's
//! output is the same byte for byte however many threads there are and
//! whichever finishes first.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// `work(0) .. work(n - 1)`, returned in that order, on up to as many
/// threads as the machine has cores (jobs handed out one at a time, so an
/// uneven mix of long and short ones keeps every thread busy). `done(k)` is
/// called on the calling thread each time a job ends, `k` the jobs ended
/// so far (for progress); `done(0)` first. A panicking job panics the call
/// once the other threads have stopped.
pub(crate) fn map<T: Send>(n: usize, work: impl Fn(usize) -> T + Sync, mut done: impl FnMut(usize)) -> Vec<T> {
    done(0);
    let threads = std::thread::available_parallelism().map_or(1, |p| p.get()).clamp(1, n.max(1));
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for _ in 0..threads {
            let (send, next, work) = (send.clone(), &next, &work);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    // The receiver lives until every job has reported: a
                    // failed send means the caller is unwinding already.
                    if send.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Ends when every sender is gone: all jobs reported, or a thread
        // panicked (the scope then re-raises its panic).
        for (ended, (i, result)) in receive.iter().enumerate() {
            out[i] = Some(result);
            done(ended + 1);
        }
    });
    out.into_iter().map(|r| r.expect("every job reported (a panicking one panics the scope)")).collect()
}

#[cfg(test)]
mod tests {
    use super::map;

    #[test]
    fn results_keep_job_order_whatever_ends_first() {
        // Later jobs end first: the order is still the jobs'.
        let out = map(
            16,
            |i| {
                std::thread::sleep(std::time::Duration::from_millis((16 - i as u64) * 2));
                i * 10
            },
            |_| {},
        );
        assert_eq!(out, (0..16).map(|i| i * 10).collect::<Vec<_>>());
    }

    #[test]
    fn progress_counts_every_job_once_from_zero() {
        let mut seen = Vec::new();
        map(7, |i| i, |k| seen.push(k));
        assert_eq!(seen, (0..=7).collect::<Vec<_>>());
        let mut none = Vec::new();
        assert!(map(0, |i| i, |k| none.push(k)).is_empty());
        assert_eq!(none, vec![0]);
    }

    #[test]
    #[should_panic(expected = "a scoped thread panicked")]
    fn a_panicking_job_panics_the_call() {
        map(
            8,
            |i| {
                assert!(i != 3, "job 3 fails");
                i
            },
            |_| {},
        );
    }
}
