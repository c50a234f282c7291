# syntax=docker/dockerfile:1
#
# Arbiter container image.
#
#   docker build -t arbiter:local .
#   docker run --rm -p 8080:8080 -e ARBITER_INSTANCE_ID=a1 arbiter:local
#
# Stages:
#   skeleton - copies the whole build context and keeps only the Cargo manifests,
#              Cargo.lock, build scripts and stub sources. Its output changes only
#              when one of those changes or a target file is added, so ...
#   builder  - ... the dependency build below stays cached across source edits;
#              then the real sources are copied in and `arbiter` is built.
#   runtime  - debian slim, non-root, the binary and nothing else.
#
# Every workspace crate and every target file (src/bin, tests, benches, examples)
# is picked up automatically: no per-crate COPY lines to maintain. A target
# declared with an explicit `path` outside those places would need a stub too.

ARG RUST_IMAGE=rust:1-slim-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${RUST_IMAGE} AS skeleton
WORKDIR /src
COPY . .
# Keep Cargo.lock, every Cargo.toml and build.rs; stub src/main.rs and src/lib.rs
# in each crate and every target file (manifests may name them, e.g. [[bench]]).
RUN mkdir /skeleton \
    && cp Cargo.lock /skeleton/ \
    && find . -path ./target -prune -o -name Cargo.toml -printf '%h\n' > /tmp/crates \
    && while read -r dir; do \
         mkdir -p "/skeleton/${dir}/src" \
         && cp "${dir}/Cargo.toml" "/skeleton/${dir}/Cargo.toml" \
         && if [ -f "${dir}/build.rs" ]; then cp "${dir}/build.rs" "/skeleton/${dir}/build.rs"; fi \
         && printf '//! build-cache stub\nfn main() {}\n' > "/skeleton/${dir}/src/main.rs" \
         && echo '//! build-cache stub' > "/skeleton/${dir}/src/lib.rs"; \
       done < /tmp/crates \
    && find . -path ./target -prune -o -type f -name '*.rs' \
         \( -path '*/src/bin/*' -o -path '*/tests/*' -o -path '*/benches/*' -o -path '*/examples/*' \) \
         -print > /tmp/targets \
    && while read -r file; do \
         mkdir -p "/skeleton/$(dirname "${file}")" \
         && printf '//! build-cache stub\nfn main() {}\n' > "/skeleton/${file}"; \
       done < /tmp/targets

FROM ${RUST_IMAGE} AS builder
WORKDIR /src
ENV CARGO_TERM_COLOR=never \
    CARGO_INCREMENTAL=0
# 1. Dependencies only: compiled against the stub sources, cached until a
#    manifest or Cargo.lock changes.
COPY --from=skeleton /skeleton/ ./
RUN cargo build --release --locked --bin arbiter \
    && find . -path ./target -prune -o -type d \
         \( -name src -o -name tests -o -name benches -o -name examples \) -prune -exec rm -rf {} +
# 2. The real sources. COPY keeps the build context's mtimes, which may be older
#    than the stub build's fingerprints: touch every source so cargo rebuilds the
#    workspace crates (dependencies stay cached).
COPY . .
RUN find . -path ./target -prune -o -name '*.rs' -exec touch {} + \
    && cargo build --release --locked --bin arbiter \
    && install -D -m 0755 target/release/arbiter /out/arbiter

FROM ${RUNTIME_IMAGE} AS runtime
# No outbound calls are made, so no ca-certificates; no curl either: the health
# check below speaks HTTP/1.1 over bash's /dev/tcp.
RUN groupadd --system --gid 10001 arbiter \
    && useradd --system --no-log-init --uid 10001 --gid arbiter \
         --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin arbiter
COPY --from=builder /out/arbiter /usr/local/bin/arbiter
USER 10001:10001
# The probes have their own listener (ARBITER_PROBE_ADDR), outside the client
# connections' cap: a replica whose clients hold every connection is still healthy.
ENV ARBITER_ADDR=0.0.0.0:8080 \
    ARBITER_PROBE_ADDR=0.0.0.0:9090 \
    LOG_FORMAT=json
EXPOSE 8080 9090
STOPSIGNAL SIGTERM
# GET /healthz on the port of ARBITER_PROBE_ADDR (ARBITER_ADDR's if it is unset);
# healthy only on "HTTP/1.1 200".
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/bin/bash", "-c", "a=${ARBITER_PROBE_ADDR:-$ARBITER_ADDR} && exec 3<>\"/dev/tcp/127.0.0.1/${a##*:}\" && printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && read -r -t 2 _ code _ <&3 && [ \"$code\" = 200 ]"]
ENTRYPOINT ["/usr/local/bin/arbiter"]
