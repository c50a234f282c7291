#!/usr/bin/env bash
# The scaling table of /v1/analyze (issue 11): runs the rules crate's `scale`
# benchmark group (crates/rules/benches/scale.rs) and prints, in markdown, each
# scene's ordered pairs, criterion's median time per analysis and that time per
# pair, read from target/criterion/scale/*/*/new/{benchmark,estimates}.json.
#
#   scripts/scale-table.sh [--table-only] [BENCH ARGS...]
#
# --table-only prints the table of the last run without running the benchmark.
# Other arguments go to the benchmark (a filter such as `creatures`, or
# criterion options). The benchmark's own output goes to stderr.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

RUN=1
if [ "${1:-}" = --table-only ]; then
  RUN=0
  shift
fi
if [ "$RUN" = 1 ]; then
  cargo bench -p arbiter-rules --bench scale --locked -- "$@" >&2
fi
TARGET=$(cargo metadata --format-version 1 --no-deps --locked |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')

python3 - "$TARGET/criterion/scale" <<'EOF'
import json, pathlib, re, sys

root = pathlib.Path(sys.argv[1])
rows = []
for meta in sorted(root.glob("*/*/new/benchmark.json")):
    b = json.loads(meta.read_text())
    est = json.loads((meta.parent / "estimates.json").read_text())
    pairs = (b.get("throughput") or {}).get("Elements")
    m = re.fullmatch(r"(\d+) creatures, (\d+)x\d+, (\d+) walls", b["value_str"] or "")
    if not m:
        continue
    creatures, side, walls = map(int, m.groups())
    # Rows in the order of the benchmark: creatures, walls, map size; then by the varied figure.
    key = {"creatures": (0, creatures), "walls": (1, walls), "map": (2, side)}.get(b["function_id"], (3, 0))
    rows.append((key, creatures, side, walls, pairs, est["median"]["point_estimate"]))
if not rows:
    sys.exit(f"no results under {root}: run the benchmark first")
print("| scene | pairs | median ms | µs per pair |")
print("|---|---:|---:|---:|")
for _, creatures, side, walls, pairs, ns in sorted(rows):
    per_pair = f"{ns / 1000 / pairs:.1f}" if pairs else "–"
    count = f"{pairs:,}" if pairs else "–"
    print(f"| {creatures} creatures, {side}², {walls:,} walls | {count} | {ns / 1e6:.2f} | {per_pair} |")
EOF
