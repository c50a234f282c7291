//! A small Prometheus registry: request counts and latency histograms per route and status.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use crate::pool::RulesPool;

/// Upper bounds of the latency buckets, seconds.
const BUCKETS: [f64; 12] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5];

#[derive(Debug, Default, Clone)]
struct Series {
    count: u64,
    sum: f64,
    buckets: [u64; BUCKETS.len()],
}

/// Bytes held now in the shared memory budgets, and their sizes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budgets {
    /// Bytes of question bodies being read or worked on.
    pub bodies: u64,
    /// `ARBITER_BODY_MEMORY_BYTES` in force.
    pub bodies_max: u64,
    /// Bytes of large answers waiting to be sent.
    pub answers: u64,
    /// `ARBITER_ANSWER_MEMORY_BYTES` in force.
    pub answers_max: u64,
}

/// Request metrics of this process.
#[derive(Debug, Default)]
pub struct Metrics {
    series: Mutex<BTreeMap<(&'static str, String, u16), Series>>,
    in_flight: AtomicI64,
    shed: AtomicI64,
    refused: AtomicI64,
    problems: Mutex<BTreeMap<&'static str, u64>>,
}

impl Metrics {
    /// Records one answered request.
    pub fn observe(&self, method: &'static str, route: &str, status: u16, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        // A poisoned lock only means another thread panicked mid-update; the counts are still
        // usable.
        let mut map = self.series.lock().unwrap_or_else(|e| e.into_inner());
        let s = map.entry((method, route.to_owned(), status)).or_default();
        s.count += 1;
        s.sum += secs;
        for (b, le) in s.buckets.iter_mut().zip(BUCKETS) {
            if secs <= le {
                *b += 1;
            }
        }
    }

    /// Adjusts the in-flight gauge.
    pub fn in_flight(&self, delta: i64) {
        self.in_flight.fetch_add(delta, Ordering::Relaxed);
    }

    /// Counts a connection refused at the connection cap.
    pub fn refused(&self) {
        self.refused.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a request shed for overload.
    pub fn shed(&self) {
        self.shed.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts an error answer by its problem type (a closed set).
    pub fn problem(&self, kind: &'static str) {
        *self.problems.lock().unwrap_or_else(|e| e.into_inner()).entry(kind).or_default() += 1;
    }

    /// The Prometheus text exposition: requests, the rules pool, the process.
    pub fn render(&self, pool: &RulesPool, budgets: Budgets) -> String {
        let map = self.series.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP arbiter_http_requests_total Requests answered, by method, route and status."
        );
        let _ = writeln!(out, "# TYPE arbiter_http_requests_total counter");
        for ((m, r, s), v) in &map {
            let _ = writeln!(
                out,
                "arbiter_http_requests_total{{method=\"{m}\",route=\"{r}\",status=\"{s}\"}} {}",
                v.count
            );
        }
        let _ = writeln!(
            out,
            "# HELP arbiter_http_request_duration_seconds Time to answer, by method, route and status."
        );
        let _ = writeln!(out, "# TYPE arbiter_http_request_duration_seconds histogram");
        for ((m, r, s), v) in &map {
            let labels = format!("method=\"{m}\",route=\"{r}\",status=\"{s}\"");
            for (le, n) in BUCKETS.iter().zip(v.buckets) {
                let _ =
                    writeln!(out, "arbiter_http_request_duration_seconds_bucket{{{labels},le=\"{le}\"}} {n}");
            }
            let _ = writeln!(
                out,
                "arbiter_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {}",
                v.count
            );
            let _ = writeln!(out, "arbiter_http_request_duration_seconds_sum{{{labels}}} {}", v.sum);
            let _ = writeln!(out, "arbiter_http_request_duration_seconds_count{{{labels}}} {}", v.count);
        }
        let _ = writeln!(out, "# HELP arbiter_http_requests_in_flight Requests being answered now.");
        let _ = writeln!(out, "# TYPE arbiter_http_requests_in_flight gauge");
        let _ = writeln!(out, "arbiter_http_requests_in_flight {}", self.in_flight.load(Ordering::Relaxed));
        let _ = writeln!(
            out,
            "# HELP arbiter_http_requests_shed_total Questions answered 503 because the rules pool or the answer memory was full."
        );
        let _ = writeln!(out, "# TYPE arbiter_http_requests_shed_total counter");
        let _ = writeln!(out, "arbiter_http_requests_shed_total {}", self.shed.load(Ordering::Relaxed));
        let _ = writeln!(
            out,
            "# HELP arbiter_http_connections_refused_total Connections refused at the connection cap."
        );
        let _ = writeln!(out, "# TYPE arbiter_http_connections_refused_total counter");
        let _ =
            writeln!(out, "arbiter_http_connections_refused_total {}", self.refused.load(Ordering::Relaxed));
        let _ = writeln!(
            out,
            "# HELP arbiter_http_problems_total Error answers by problem type (work-budget-exceeded, timeout, ...)."
        );
        let _ = writeln!(out, "# TYPE arbiter_http_problems_total counter");
        for (kind, n) in self.problems.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(out, "arbiter_http_problems_total{{type=\"{kind}\"}} {n}");
        }
        gauge(&mut out, "arbiter_rules_workers", "Rules workers.", pool.size() as u64);
        gauge(&mut out, "arbiter_rules_capacity", "Rules workers plus queue slots.", pool.capacity() as u64);
        gauge(&mut out, "arbiter_rules_busy", "Rules workers computing now.", pool.busy() as u64);
        gauge(
            &mut out,
            "arbiter_rules_queued",
            "Questions waiting for a rules worker.",
            pool.queued() as u64,
        );
        gauge(&mut out, "arbiter_body_memory_bytes", "Bytes of question bodies held now.", budgets.bodies);
        gauge(
            &mut out,
            "arbiter_body_memory_max_bytes",
            "Body memory (ARBITER_BODY_MEMORY_BYTES).",
            budgets.bodies_max,
        );
        gauge(
            &mut out,
            "arbiter_answer_memory_bytes",
            "Bytes of large answers waiting to be sent.",
            budgets.answers,
        );
        gauge(
            &mut out,
            "arbiter_answer_memory_max_bytes",
            "Answer memory (ARBITER_ANSWER_MEMORY_BYTES).",
            budgets.answers_max,
        );
        let _ = writeln!(out, "# HELP arbiter_build_info The running build.");
        let _ = writeln!(out, "# TYPE arbiter_build_info gauge");
        let _ = writeln!(out, "arbiter_build_info{{version=\"{}\"}} 1", env!("CARGO_PKG_VERSION"));
        process(&mut out);
        out
    }
}

fn gauge(out: &mut String, name: &str, help: &str, value: u64) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} gauge");
    let _ = writeln!(out, "{name} {value}");
}

/// The standard `process_*` metrics, read from `/proc/self` (absent where there is none).
fn process(out: &mut String) {
    if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
        // Fields after the parenthesised command name; utime and stime are the 14th and 15th
        // fields of the line, the 12th and 13th after it.
        let fields: Vec<&str> =
            stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
        let ticks = rustix::param::clock_ticks_per_second().max(1) as f64;
        let cpu = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        let secs = (cpu(11) + cpu(12)) / ticks;
        let _ = writeln!(out, "# HELP process_cpu_seconds_total User and system CPU time spent, seconds.");
        let _ = writeln!(out, "# TYPE process_cpu_seconds_total counter");
        let _ = writeln!(out, "process_cpu_seconds_total {secs}");
    }
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        let kib = |key: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        };
        if let Some(rss) = kib("VmRSS:") {
            gauge(out, "process_resident_memory_bytes", "Resident memory, bytes.", rss * 1024);
        }
        if let Some(peak) = kib("VmHWM:") {
            gauge(out, "process_resident_memory_max_bytes", "Peak resident memory, bytes.", peak * 1024);
        }
        if let Some(virt) = kib("VmSize:") {
            gauge(out, "process_virtual_memory_bytes", "Virtual memory, bytes.", virt * 1024);
        }
    }
    if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
        gauge(out, "process_open_fds", "Open file descriptors.", fds.count() as u64);
    }
    if let Some(max) = rustix::process::getrlimit(rustix::process::Resource::Nofile).current {
        gauge(out, "process_max_fds", "File descriptor limit (soft).", max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_cumulative() {
        let m = Metrics::default();
        m.observe("POST", "/v1/range", 200, Duration::from_micros(300));
        m.observe("POST", "/v1/range", 200, Duration::from_millis(3));
        let budgets = Budgets { bodies: 3, bodies_max: 8, answers: 0, answers_max: 16 };
        let text = m.render(&RulesPool::new(2, 4, Duration::from_secs(1)), budgets);
        assert!(
            text.contains(
                "arbiter_http_requests_total{method=\"POST\",route=\"/v1/range\",status=\"200\"} 2"
            )
        );
        assert!(text.contains("le=\"0.00025\"} 0"));
        assert!(text.contains("le=\"0.0005\"} 1"));
        assert!(text.contains("le=\"0.005\"} 2"));
        assert!(text.contains("le=\"+Inf\"} 2"));
        assert!(text.contains("arbiter_rules_workers 2\n"), "{text}");
        assert!(text.contains("arbiter_rules_capacity 6\n"), "{text}");
        assert!(text.contains("arbiter_body_memory_bytes 3\n"), "{text}");
        assert!(text.contains("arbiter_answer_memory_max_bytes 16\n"), "{text}");
    }
}
