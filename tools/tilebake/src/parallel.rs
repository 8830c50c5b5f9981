//! Independent jobs on every core, their results in job order: the bake's
//! output is the same byte for byte however many threads there are and
//! whichever finishes first.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

std::thread_local! {
    /// Threads for [`map`] called on this thread: 0 for one a core (what
    /// the tool uses); tests set others (each on its own thread, so that
    /// tests running meanwhile keep theirs).
    static THREADS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Makes [`map`] called on this thread run on `threads` threads (0: one a
/// core). For tests.
#[cfg(test)]
pub(crate) fn set_threads(threads: usize) {
    THREADS.set(threads);
}

/// Runs `f` with the bake's parallel stages on this thread using `threads`
/// threads (0: one a core, the default), then puts the count back, also
/// when `f` panics. For a build script, where cargo's `-j` (`NUM_JOBS`) is
/// the budget; the bank is the same byte for byte whatever the count.
///
/// ```
/// let answer = tilebake::with_threads(2, || 7);
/// assert_eq!(answer, 7);
/// ```
pub fn with_threads<R>(threads: usize, f: impl FnOnce() -> R) -> R {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            THREADS.set(self.0);
        }
    }
    let _restore = Restore(THREADS.replace(threads));
    f()
}

/// `work(0) .. work(n - 1)`, returned in that order, on up to as many
/// threads as the machine has cores (jobs handed out one at a time, so an
/// uneven mix of long and short ones keeps every thread busy). `done(k)` is
/// called on the calling thread each time a job ends, `k` the jobs ended
/// so far (for progress); `done(0)` first. A job that panics stops the
/// others taking new jobs, and once the running ones end the call panics
/// with that job's own payload (of the lowest job that panicked, when more
/// than one did).
pub(crate) fn map<T: Send>(n: usize, work: impl Fn(usize) -> T + Sync, mut done: impl FnMut(usize)) -> Vec<T> {
    done(0);
    let threads = match THREADS.get() {
        0 => std::thread::available_parallelism().map_or(1, |p| p.get()),
        t => t,
    }
    .clamp(1, n.max(1));
    let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let mut out: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let mut failed: Option<(usize, Box<dyn Any + Send>)> = None;
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for _ in 0..threads {
            let (send, next, stop, work) = (send.clone(), &next, &stop, &work);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let result = catch_unwind(AssertUnwindSafe(|| work(i)));
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    // The receiver lives until every sender is gone.
                    if send.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Ends when every sender is gone: all jobs reported, or stopped.
        for (ended, (i, result)) in receive.iter().enumerate() {
            match result {
                Ok(value) => out[i] = Some(value),
                Err(payload) => {
                    if failed.as_ref().is_none_or(|(first, _)| i < *first) {
                        failed = Some((i, payload));
                    }
                }
            }
            done(ended + 1);
        }
    });
    if let Some((_, payload)) = failed {
        resume_unwind(payload);
    }
    out.into_iter().map(|r| r.expect("every job reported (or one panicked, raised above)")).collect()
}

#[cfg(test)]
mod tests {
    use super::{THREADS, map, set_threads, with_threads};
    use std::sync::atomic::{AtomicUsize, Ordering};

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
    fn with_threads_bounds_the_threads_and_puts_the_count_back() {
        let ids = |n| {
            let ids = map(n, |_| std::thread::current().id(), |_| {});
            ids.into_iter().collect::<std::collections::HashSet<_>>().len()
        };
        set_threads(3);
        assert_eq!(with_threads(1, || ids(40)), 1);
        assert_eq!(THREADS.get(), 3, "the count put back");
        let unwound = std::panic::catch_unwind(|| with_threads(2, || panic!("a job's panic")));
        assert!(unwound.is_err());
        assert_eq!(THREADS.get(), 3, "the count put back after a panic");
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
    #[should_panic(expected = "job 3 fails")]
    fn a_panicking_job_panics_the_call_with_its_own_message() {
        map(
            8,
            |i| {
                assert!(i != 3, "job 3 fails");
                i
            },
            |_| {},
        );
    }

    #[test]
    fn a_panicking_job_stops_the_jobs_not_yet_begun() {
        // Two threads: job 0 fails at once, while the other thread goes on
        // through jobs of 5 ms until it sees the stop, once the panic hook
        // (its message, perhaps a backtrace) is done: a few dozen jobs,
        // where without the stop all 1,000 would run (2.5 s).
        super::set_threads(2);
        let ran = AtomicUsize::new(0);
        let outcome = std::panic::catch_unwind(|| {
            map(
                1000,
                |i| {
                    ran.fetch_add(1, Ordering::Relaxed);
                    assert!(i != 0, "job 0 fails");
                    std::thread::sleep(std::time::Duration::from_millis(5));
                },
                |_| {},
            )
        });
        super::set_threads(0);
        assert!(outcome.is_err());
        let ran = ran.load(Ordering::Relaxed);
        assert!(ran < 500, "{ran} of 1000 jobs ran after the first failed");
    }
}
