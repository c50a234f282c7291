//! The rules pool: questions run on a bounded set of dedicated threads, never on the async
//! workers, so that `/healthz`, `/readyz`, `/metrics`, the 503 path and every socket keep being
//! served while all rules workers compute.
//!
//! A question goes through [`crate::questions`]: its body is read on the async side (bounded in size
//! and time, so a slow client holds a socket but no worker), then it takes a slot among
//! `workers + queue` (none free: 503 at once), waits in the queue for a worker, and the whole
//! handler — JSON parse, rules, answer serialisation — runs on that worker. Handlers never
//! await I/O once the body is buffered, so driving them with `Handle::block_on` on the worker
//! is a plain synchronous call.
//!
//! The hand-off is built for few thread switches, which cost more than the rules on a busy
//! core (`scripts/load.sh`: about 40 µs of the 125 µs of a `/v1/cover` on one core with a
//! `spawn_blocking` per question behind a semaphore). The workers are the pool's own threads,
//! each taking job after job from one queue. A worker does not wake the async side after
//! every job while more jobs wait: it stores the answer and leaves the caller's waker to one
//! async task, the courier, which wakes the callers on the async workers in batches (when a
//! worker finds the queue dry, after [`BATCH`] answers, or [`BATCH_DELAY`] after the first
//! answer of the batch, whatever the workers compute then). One cross-thread wake per batch
//! instead of one per question; an answer waits at most [`BATCH_DELAY`] for its batch.

use std::collections::VecDeque;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

/// Most answers a worker holds before handing their wakers to the courier.
pub const BATCH: usize = 16;

/// Longest an answer waits for its batch.
pub const BATCH_DELAY: Duration = Duration::from_micros(500);

/// A bounded pool of dedicated worker threads for the rules.
#[derive(Debug)]
pub struct RulesPool {
    /// Slots for questions running or waiting: workers + queue.
    admit: Arc<Semaphore>,
    shared: Arc<Shared>,
    /// The async task that wakes the callers of answered jobs; started (again) by `run` on
    /// the caller's runtime when it is not running.
    courier: Mutex<Option<JoinHandle<()>>>,
    size: usize,
    capacity: usize,
    wait: Duration,
}

/// What the pool's threads share with it.
#[derive(Debug, Default)]
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Wakers of answered jobs, for the courier.
    answered: Mutex<Vec<Waker>>,
    courier: Notify,
    /// Send the batch now rather than at its deadline.
    flush: AtomicBool,
    busy: AtomicUsize,
    queued: AtomicUsize,
}

/// A job as the workers see it: it checks itself whether it was given up before it started,
/// and returns the waker of its caller, if the caller is waiting.
type Task = Box<dyn FnOnce() -> Option<Waker> + Send>;

#[derive(Default)]
struct Queue {
    tasks: VecDeque<Task>,
    /// Threads started, and those of them waiting for a task.
    threads: usize,
    idle: usize,
    /// Set when the pool is dropped: idle threads exit.
    closed: bool,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue")
            .field("tasks", &self.tasks.len())
            .field("threads", &self.threads)
            .field("idle", &self.idle)
            .finish()
    }
}

/// Locks a mutex whose holders never panic while holding it (jobs run outside every lock).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// Leaves an answered caller's waker to the courier. The first of a batch wakes the
    /// courier, which sends the batch [`BATCH_DELAY`] later at most, whatever the workers
    /// are doing then; a full batch is sent at once.
    fn store(&self, waker: Waker) {
        let pending = {
            let mut answered = lock(&self.answered);
            answered.push(waker);
            answered.len()
        };
        if pending >= BATCH {
            self.flush.store(true, Ordering::Release);
        }
        if pending == 1 || pending >= BATCH {
            self.courier.notify_one();
        }
    }

    /// Asks the courier to send what it holds now (a worker found nothing else to do).
    fn flush(&self) {
        self.flush.store(true, Ordering::Release);
        self.courier.notify_one();
    }
}

/// Why the pool did not answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolError {
    /// Every worker is busy and the queue is full.
    Full,
    /// The job panicked (a bug; the rules crate never panics by contract).
    Panicked,
}

/// A job's stage: the worker and the waiting caller race to move it out of `QUEUED`.
const QUEUED: u8 = 0;
const STARTED: u8 = 1;
const ABANDONED: u8 = 2;

/// One job's state shared by its caller and its worker.
struct Ticket<R> {
    stage: AtomicU8,
    /// The job's pool slot: given back at once by a caller that gives up a queued job, taken
    /// by the worker that starts it and held until the job returns.
    slot: Mutex<Option<OwnedSemaphorePermit>>,
    answer: Mutex<Answer<R>>,
}

/// A job's answer, once there, and the waker of the caller waiting for it.
struct Answer<R> {
    value: Option<Result<R, PoolError>>,
    waker: Option<Waker>,
}

impl<R> Ticket<R> {
    /// Gives the job up if it has not started: the slot comes back, the worker will skip it.
    fn abandon(&self, shared: &Shared) -> bool {
        let given_up =
            self.stage.compare_exchange(QUEUED, ABANDONED, Ordering::AcqRel, Ordering::Acquire).is_ok();
        if given_up {
            shared.queued.fetch_sub(1, Ordering::Relaxed);
            drop(lock(&self.slot).take());
        }
        given_up
    }

    /// Stores the answer; returns the caller's waker to wake.
    fn answer(&self, value: Result<R, PoolError>) -> Option<Waker> {
        let mut a = lock(&self.answer);
        a.value = Some(value);
        a.waker.take()
    }
}

/// The caller's side of a job: waits for the answer; dropped (answered, timed out, client
/// gone), it gives the job up if it has not started.
struct Waiting<R> {
    ticket: Arc<Ticket<R>>,
    shared: Arc<Shared>,
}

impl<R> Future for Waiting<R> {
    type Output = Result<R, PoolError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut a = lock(&self.ticket.answer);
        if let Some(v) = a.value.take() {
            return Poll::Ready(v);
        }
        if !a.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            a.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}

impl<R> Drop for Waiting<R> {
    fn drop(&mut self) {
        self.ticket.abandon(&self.shared);
        lock(&self.ticket.answer).waker = None;
    }
}

/// Answers a job that never ran (the pool closed under it) with `Full`, so that no caller
/// waits forever.
struct Reply<R> {
    ticket: Arc<Ticket<R>>,
    sent: bool,
}

impl<R> Drop for Reply<R> {
    fn drop(&mut self) {
        if !self.sent
            && self.ticket.stage.load(Ordering::Acquire) != ABANDONED
            && let Some(w) = self.ticket.answer(Err(PoolError::Full))
        {
            w.wake();
        }
    }
}

/// Counts a worker as busy for as long as it lives.
struct Busy<'a>(&'a AtomicUsize);

impl<'a> Busy<'a> {
    fn new(gauge: &'a AtomicUsize) -> Busy<'a> {
        gauge.fetch_add(1, Ordering::Relaxed);
        Busy(gauge)
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl RulesPool {
    /// A pool of `workers` threads (at least one, started as the load needs them) with room
    /// for `queue` jobs waiting at most `wait` each.
    pub fn new(workers: usize, queue: usize, wait: Duration) -> RulesPool {
        let size = workers.max(1);
        let capacity = size.saturating_add(queue);
        RulesPool {
            admit: Arc::new(Semaphore::new(capacity)),
            shared: Arc::new(Shared::default()),
            courier: Mutex::new(None),
            size,
            capacity,
            wait,
        }
    }

    /// Workers.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Workers + queue.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Workers computing now (including cancelled jobs that have not reached a budget check).
    pub fn busy(&self) -> usize {
        self.shared.busy.load(Ordering::Relaxed)
    }

    /// Jobs waiting for a worker.
    pub fn queued(&self) -> usize {
        self.shared.queued.load(Ordering::Relaxed)
    }

    /// Runs `job` on a worker, or answers [`PoolError::Full`] at once when no slot is free
    /// and after the queue wait when no worker came free in time.
    ///
    /// Dropping the returned future (client gone, timeout) gives the slot back if the job
    /// has not started; a started job keeps its worker and its slot until it returns, so the
    /// pool never runs more than `size` jobs. Callers stop started jobs through their
    /// budget's cancel flag.
    pub async fn run<R, F>(self: &Arc<Self>, job: F) -> Result<R, PoolError>
    where
        F: FnOnce() -> R + Send + 'static,
        R: Send + 'static,
    {
        let slot = self.admit.clone().try_acquire_owned().map_err(|_| PoolError::Full)?;
        self.ensure_courier();
        let ticket = Arc::new(Ticket {
            stage: AtomicU8::new(QUEUED),
            slot: Mutex::new(Some(slot)),
            answer: Mutex::new(Answer { value: None, waker: None }),
        });
        let task: Task = {
            let mut reply = Reply { ticket: ticket.clone(), sent: false };
            let shared = self.shared.clone();
            Box::new(move || {
                let started =
                    reply.ticket.stage.compare_exchange(QUEUED, STARTED, Ordering::AcqRel, Ordering::Acquire);
                if started.is_err() {
                    return None;
                }
                shared.queued.fetch_sub(1, Ordering::Relaxed);
                let slot = lock(&reply.ticket.slot).take();
                let busy = Busy::new(&shared.busy);
                let out = catch_unwind(AssertUnwindSafe(job)).map_err(|_| PoolError::Panicked);
                // Free before answering: whoever sees the answer sees the worker free.
                drop((busy, slot));
                reply.sent = true;
                reply.ticket.answer(out)
            })
        };
        self.shared.queued.fetch_add(1, Ordering::Relaxed);
        let mut waiting = Waiting { ticket, shared: self.shared.clone() };
        if !self.push(task) {
            return Err(PoolError::Full);
        }
        match tokio::time::timeout(self.wait, &mut waiting).await {
            Ok(answer) => answer,
            Err(_) if waiting.ticket.abandon(&self.shared) => Err(PoolError::Full),
            // Started just as the wait ran out: it holds a worker, wait for its answer.
            Err(_) => waiting.await,
        }
    }

    /// Starts the courier on the current runtime unless it runs (a pool outlives the
    /// runtime of a test that made it).
    fn ensure_courier(&self) {
        let mut courier = lock(&self.courier);
        if courier.as_ref().is_some_and(|c| !c.is_finished()) {
            return;
        }
        let shared = self.shared.clone();
        *courier = Some(tokio::spawn(async move {
            loop {
                // The first answer of a batch; then more, up to the deadline or a flush.
                shared.courier.notified().await;
                if !shared.flush.swap(false, Ordering::AcqRel) {
                    tokio::select! {
                        () = shared.courier.notified() => {}
                        () = tokio::time::sleep(BATCH_DELAY) => {}
                    }
                    shared.flush.store(false, Ordering::Release);
                }
                let wakers = std::mem::take(&mut *lock(&shared.answered));
                for w in wakers {
                    w.wake();
                }
            }
        }));
    }

    /// Queues a task, waking an idle worker or starting one; false if no worker can run it.
    fn push(&self, task: Task) -> bool {
        let mut q = lock(&self.shared.queue);
        q.tasks.push_back(task);
        if q.idle > 0 {
            drop(q);
            self.shared.ready.notify_one();
            return true;
        }
        if q.threads >= self.size {
            return true;
        }
        q.threads += 1;
        drop(q);
        let shared = self.shared.clone();
        let spawned = std::thread::Builder::new().name("arbiter-rules".into()).spawn(move || work(&shared));
        if spawned.is_ok() {
            return true;
        }
        let mut q = lock(&self.shared.queue);
        q.threads -= 1;
        // Without any thread the task would wait forever: take it back (the caller's
        // `Waiting` gives its slot back).
        if q.threads == 0 {
            q.tasks.clear();
            return false;
        }
        true
    }
}

impl Drop for RulesPool {
    fn drop(&mut self) {
        lock(&self.shared.queue).closed = true;
        self.shared.ready.notify_all();
        if let Some(c) = lock(&self.courier).take() {
            c.abort();
        }
    }
}

/// A worker thread: task after task, waiting only when the queue is empty; the callers'
/// wakers go to the courier, which wakes them in batches.
fn work(shared: &Shared) {
    yield_to_async_workers();
    // Some waker was left to the courier since the queue was last found empty.
    let mut unsent = false;
    loop {
        let task = {
            let mut q = lock(&shared.queue);
            loop {
                if let Some(t) = q.tasks.pop_front() {
                    break t;
                }
                if unsent {
                    // The queue ran dry: nothing to batch with, answer now.
                    unsent = false;
                    drop(q);
                    shared.flush();
                    q = lock(&shared.queue);
                    continue;
                }
                if q.closed {
                    q.threads -= 1;
                    return;
                }
                q.idle += 1;
                q = shared.ready.wait(q).unwrap_or_else(PoisonError::into_inner);
                q.idle -= 1;
            }
        };
        if let Some(w) = task() {
            shared.store(w);
            unsent = true;
        }
    }
}

/// Lowers the scheduling priority of the calling (worker) thread, so that when the cores are
/// saturated the async workers — health checks, metrics, 503s, sockets — still get the CPU
/// first. Linux applies `setpriority` on a thread id to that thread only; elsewhere, or
/// without the right, it is a no-op.
fn yield_to_async_workers() {
    let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), RULES_NICE);
}

/// The nice value of rules workers (the async workers keep the process's, normally 0).
const RULES_NICE: i32 = 10;

#[cfg(test)]
mod tests {
    use super::*;

    const LONG: std::time::Duration = std::time::Duration::from_secs(60);

    /// A job holding a worker until the sender is sent to (or dropped); returns once it runs.
    async fn hold(
        pool: &Arc<RulesPool>,
    ) -> (std::sync::mpsc::Sender<()>, tokio::task::JoinHandle<Result<bool, PoolError>>) {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let pool2 = pool.clone();
        let running = tokio::spawn(async move { pool2.run(move || rx.recv().is_ok()).await });
        while pool.busy() == 0 {
            tokio::task::yield_now().await;
        }
        (tx, running)
    }

    /// A job answering `n`, spawned; returns once it waits in the queue.
    async fn queue(pool: &Arc<RulesPool>, n: u8) -> tokio::task::JoinHandle<Result<u8, PoolError>> {
        let pool2 = pool.clone();
        let waiting = tokio::spawn(async move { pool2.run(move || n).await });
        while pool.queued() == 0 {
            tokio::task::yield_now().await;
        }
        waiting
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_question_that_waits_too_long_for_a_worker_is_shed() {
        let pool = Arc::new(RulesPool::new(1, 8, std::time::Duration::from_millis(50)));
        let (tx, running) = hold(&pool).await;
        // A queue slot was free, but no worker came free within the wait.
        assert_eq!(pool.run(|| 1).await, Err(PoolError::Full));
        assert_eq!(pool.queued(), 0);
        tx.send(()).unwrap();
        assert_eq!(running.await.unwrap(), Ok(true));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn never_more_jobs_than_workers_and_full_at_capacity() {
        let pool = Arc::new(RulesPool::new(1, 1, LONG));
        let (tx, first) = hold(&pool).await;
        let second = queue(&pool, 2).await;
        // One running, one waiting: the third finds no slot.
        assert_eq!(pool.run(|| 3).await, Err(PoolError::Full));
        tx.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Ok(true));
        assert_eq!(second.await.unwrap(), Ok(2));
        assert_eq!((pool.busy(), pool.queued()), (0, 0));
    }

    #[tokio::test]
    async fn a_dropped_waiter_gives_its_slot_back() {
        let pool = Arc::new(RulesPool::new(1, 1, LONG));
        let (tx, running) = hold(&pool).await;
        let waiter = queue(&pool, 0).await;
        waiter.abort();
        let _ = waiter.await;
        assert_eq!(pool.queued(), 0);
        tx.send(()).unwrap();
        assert_eq!(running.await.unwrap(), Ok(true));
        assert_eq!(pool.run(|| 5).await, Ok(5));
    }

    /// Answers are handed over in batches: every one of many queued jobs still gets its own
    /// answer, in a full batch, a partial one, and when the queue runs dry.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_queued_job_gets_its_own_answer() {
        let pool = Arc::new(RulesPool::new(1, 3 * BATCH, LONG));
        let (tx, held) = hold(&pool).await;
        let mut waiting = Vec::new();
        for n in 0..(2 * BATCH + 3) {
            let pool = pool.clone();
            waiting.push(tokio::spawn(async move { pool.run(move || n * 3).await }));
        }
        while pool.queued() < 2 * BATCH + 3 {
            tokio::task::yield_now().await;
        }
        tx.send(()).unwrap();
        assert_eq!(held.await.unwrap(), Ok(true));
        for (n, w) in waiting.into_iter().enumerate() {
            assert_eq!(w.await.unwrap(), Ok(n * 3));
        }
        assert_eq!((pool.busy(), pool.queued()), (0, 0));
    }

    /// An answer is not held back by the next job its worker takes: the first job's caller
    /// gets its answer while the second still holds the only worker (before, the batch waited
    /// for the worker to finish the next job). The 10 s bound (below the pool's 60 s wait, which
    /// would also end the wait) only turns a hang into a failure.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_answer_is_not_held_behind_the_next_job() {
        let pool = Arc::new(RulesPool::new(1, 1, LONG));
        let (release_first, first) = hold(&pool).await;
        let (release_second, second_rx) = std::sync::mpsc::channel::<()>();
        let pool2 = pool.clone();
        let second = tokio::spawn(async move { pool2.run(move || second_rx.recv().is_ok()).await });
        while pool.queued() == 0 {
            tokio::task::yield_now().await;
        }
        release_first.send(()).unwrap();
        let answered = tokio::time::timeout(Duration::from_secs(10), first).await;
        release_second.send(()).unwrap();
        assert_eq!(answered.expect("the first answer came while the worker was busy").unwrap(), Ok(true));
        assert_eq!(second.await.unwrap(), Ok(true));
    }

    /// The courier lives on a runtime: a pool that outlives the runtime that first used it
    /// (as in tests) starts a new one on the next.
    #[test]
    fn a_pool_outlives_the_runtime_that_first_used_it() {
        let pool = Arc::new(RulesPool::new(1, 1, LONG));
        for n in 0..3u8 {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let p = pool.clone();
            assert_eq!(rt.block_on(async move { p.run(move || n).await }), Ok(n));
        }
    }

    #[tokio::test]
    async fn a_panicking_job_is_an_error_not_a_lost_worker() {
        let pool = Arc::new(RulesPool::new(1, 0, LONG));
        let res = pool.run(|| -> u8 { panic!("boom") }).await;
        assert_eq!(res, Err(PoolError::Panicked));
        assert_eq!(pool.run(|| 1).await, Ok(1));
    }
}
