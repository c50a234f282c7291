//! A small Prometheus registry: request counts and latency histograms per route and status.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, seconds.
const BUCKETS: [f64; 12] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5];

#[derive(Debug, Default, Clone)]
struct Series {
    count: u64,
    sum: f64,
    buckets: [u64; BUCKETS.len()],
}

/// Request metrics of this process.
#[derive(Debug, Default)]
pub struct Metrics {
    series: Mutex<BTreeMap<(String, String, u16), Series>>,
    in_flight: AtomicI64,
    shed: AtomicI64,
}

impl Metrics {
    /// Records one answered request.
    pub fn observe(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        // A poisoned lock only means another thread panicked mid-update; the counts are still
        // usable.
        let mut map = self.series.lock().unwrap_or_else(|e| e.into_inner());
        let s = map.entry((method.to_owned(), route.to_owned(), status)).or_default();
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

    /// Counts a request shed for overload.
    pub fn shed(&self) {
        self.shed.fetch_add(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
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
            "# HELP arbiter_http_requests_shed_total Requests answered 503 because too many were in flight."
        );
        let _ = writeln!(out, "# TYPE arbiter_http_requests_shed_total counter");
        let _ = writeln!(out, "arbiter_http_requests_shed_total {}", self.shed.load(Ordering::Relaxed));
        out
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
        let text = m.render();
        assert!(
            text.contains(
                "arbiter_http_requests_total{method=\"POST\",route=\"/v1/range\",status=\"200\"} 2"
            )
        );
        assert!(text.contains("le=\"0.00025\"} 0"));
        assert!(text.contains("le=\"0.0005\"} 1"));
        assert!(text.contains("le=\"0.005\"} 2"));
        assert!(text.contains("le=\"+Inf\"} 2"));
    }
}
