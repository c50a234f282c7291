#!/usr/bin/env bash
# Offline validation of the Kubernetes manifests in deploy/k8s/:
#  1. every manifest against the OpenAPI schemas of pinned Kubernetes versions
#     (PyPI `kubernetes-validate`, strict: unknown fields are errors);
#  2. the Deployment's consistency with the server's drain and limits (read with PyYAML):
#     terminationGracePeriodSeconds >= preStop sleep + ARBITER_UNREADY_SECS +
#     ARBITER_SHUTDOWN_GRACE_SECS + margin; ARBITER_RULES_WORKERS = the CPU limit; liveness and
#     startup on /healthz of the probes' listener (ARBITER_PROBE_ADDR), readiness on /readyz of
#     the clients' one; the container ports = the addresses'; the memory at the connection cap
#     (idle + body memory + parse working sets + answer memory + import bodies + connection
#     buffers, the sum README "Figures for operators" states) under the memory limit; every
#     selector (Service, PodDisruptionBudget) matches the pod labels; the HPA scales this
#     Deployment on CPU.
#
#   scripts/validate-k8s.sh
#
# Settings (environment):
#   K8S_VERSIONS      Kubernetes versions to validate against (default "1.31.0 1.37.0")
#   K8S_MARGIN_SECS   margin required on top of the drain (default 3)
#   K8S_VENV          venv (default target/ci-venv-k8s)
#   K8S_DIR           manifests (default deploy/k8s)
#
# Last line: `validate-k8s: N passed, M failed`; exit status 0 only if M is 0.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

KUBERNETES_VALIDATE_VERSION=${KUBERNETES_VALIDATE_VERSION:-1.37.0}
K8S_VERSIONS=${K8S_VERSIONS:-1.31.0 1.37.0}
MARGIN=${K8S_MARGIN_SECS:-3}
VENV=${K8S_VENV:-$ROOT/target/ci-venv-k8s}
PYTHON=${PYTHON:-python3}
DIR=${K8S_DIR:-deploy/k8s}

# kubernetes-validate depends on PyYAML and jsonschema, used below too.
# shellcheck source=scripts/lib/venv.sh
. "$ROOT/scripts/lib/venv.sh"
pip_tool "$VENV" kubernetes-validate "$KUBERNETES_VALIDATE_VERSION" "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"

exec "$VENV/bin/python" - "$DIR" "$MARGIN" $K8S_VERSIONS <<'PY'
import glob
import os
import re
import subprocess
import sys

import yaml

directory, margin, versions = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
kv = os.path.join(os.path.dirname(sys.executable), "kubernetes-validate")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {passed + failed:2d} - {what}")
    else:
        failed += 1
        print(f"FAIL {passed + failed:2d} - {what}", file=sys.stderr)
    return ok


manifests = sorted(glob.glob(os.path.join(directory, "*.yaml")))
# kustomization.yaml is kustomize's own format, not a Kubernetes object.
objects_files = [m for m in manifests if os.path.basename(m) != "kustomization.yaml"]
check(bool(objects_files), f"manifests found in {directory}")

# 1. Schemas, strict, per pinned Kubernetes version.
for version in versions:
    for path in objects_files:
        proc = subprocess.run(
            [kv, "--strict", "--kubernetes-version", version, path],
            capture_output=True, text=True, timeout=120)
        out = (proc.stdout + proc.stderr).strip()
        # It prints "WARN ..." for deprecated or unknown-version cases: treat as failure.
        ok = proc.returncode == 0 and "WARN" not in out and "ERROR" not in out
        if not ok:
            print(out, file=sys.stderr)
        check(ok, f"{path} valid against Kubernetes {version} (strict)")

# 2. Cross-object consistency.
docs = {}
for path in objects_files:
    with open(path) as f:
        for doc in yaml.safe_load_all(f):
            if doc:
                docs[(doc["kind"], doc["metadata"]["name"])] = doc

with open(os.path.join(directory, "kustomization.yaml")) as f:
    kustomization = yaml.safe_load(f)
listed = sorted(kustomization.get("resources", []))
check(listed == sorted(os.path.basename(p) for p in objects_files),
      f"kustomization.yaml lists every manifest ({', '.join(listed)})")

deployments = [d for (k, _), d in docs.items() if k == "Deployment"]
if not check(len(deployments) == 1, "exactly one Deployment"):
    sys.exit(1)
dep = deployments[0]
spec = dep["spec"]
pod = spec["template"]["spec"]
labels = spec["template"]["metadata"]["labels"]
containers = [c for c in pod["containers"] if c["name"] == "arbiter"]
if not check(len(containers) == 1, "the Deployment has an `arbiter` container"):
    sys.exit(1)
c = containers[0]
env = {e["name"]: e.get("value") for e in c.get("env", [])}


def env_int(name):
    value = env.get(name)
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def quantity_cpu(q):
    q = str(q)
    return float(q[:-1]) / 1000 if q.endswith("m") else float(q)


check(spec.get("replicas", 1) >= 2, f"replicas >= 2 ({spec.get('replicas')})")
check(all(labels.get(k) == v for k, v in spec["selector"]["matchLabels"].items()),
      "the Deployment's selector matches its pod labels")

# Drain timing: Kubernetes runs preStop, then sends SIGTERM, all within the grace period.
prestop = c.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
sleep_secs = None
if len(prestop) == 2 and prestop[0] in ("/bin/sleep", "sleep") and re.fullmatch(r"\d+", prestop[1]):
    sleep_secs = int(prestop[1])
check(sleep_secs is not None, f"preStop is `/bin/sleep N` ({prestop})")
unready, drain = env_int("ARBITER_UNREADY_SECS"), env_int("ARBITER_SHUTDOWN_GRACE_SECS")
check(unready is not None and drain is not None,
      f"ARBITER_UNREADY_SECS ({unready}) and ARBITER_SHUTDOWN_GRACE_SECS ({drain}) set explicitly")
tgps = pod.get("terminationGracePeriodSeconds", 30)
need = (sleep_secs or 0) + (unready or 0) + (drain or 0) + margin
check(tgps >= need,
      f"terminationGracePeriodSeconds {tgps} >= preStop {sleep_secs} + unready {unready} "
      f"+ drain {drain} + margin {margin} = {need}")
timeout = env_int("ARBITER_REQUEST_TIMEOUT_SECS")
check(timeout is not None and drain is not None and timeout <= drain,
      f"ARBITER_REQUEST_TIMEOUT_SECS {timeout} <= drain {drain} (a request can finish while draining)")

# Rules workers matched to the CPU limit.
limits = c.get("resources", {}).get("limits", {})
requests = c.get("resources", {}).get("requests", {})
cpu_limit = quantity_cpu(limits["cpu"]) if "cpu" in limits else None
workers = env_int("ARBITER_RULES_WORKERS")
check(cpu_limit is not None and workers == max(1, round(cpu_limit)),
      f"ARBITER_RULES_WORKERS {workers} = CPU limit {cpu_limit}")
check(all(k in requests for k in ("cpu", "memory")) and "memory" in limits,
      f"CPU and memory requests and a memory limit set ({requests}, {limits})")
queue = env_int("ARBITER_RULES_QUEUE")
check(queue is not None and queue >= 0, f"ARBITER_RULES_QUEUE set ({queue})")

# Every setting the server reads for limits and timeouts is explicit.
for name in ("ARBITER_ADDR", "ARBITER_WORK_BUDGET", "ARBITER_HEADER_READ_TIMEOUT_SECS",
             "ARBITER_BODY_READ_TIMEOUT_SECS", "ARBITER_IDLE_TIMEOUT_SECS",
             "ARBITER_MAX_CONNECTIONS", "ARBITER_MAX_ANSWER_BYTES", "ARBITER_MAX_BODY_BYTES",
             "ARBITER_BODY_MEMORY_BYTES", "ARBITER_ANSWER_MEMORY_BYTES", "ARBITER_MAX_IMPORT_BYTES",
             "ARBITER_PROBE_ADDR"):
    check(env.get(name) not in (None, ""), f"{name} set explicitly ({env.get(name)})")

# Memory at the connection cap, at worst, against the memory limit. The figures per part are
# README's ("Figures for operators"): the idle process, and a parse working set of 64 times
# the body (1 MiB of minimal creatures took about 60 MB per worker).
IDLE_MIB, PARSE_FACTOR, CONNECTION_KIB = 40, 64, 64


def quantity_mib(q):
    q = str(q)
    for suffix, mib in (("Gi", 1024), ("Mi", 1), ("Ki", 1 / 1024)):
        if q.endswith(suffix):
            return float(q[:-2]) * mib
    return float(q) / 2**20


mib = 2**20
parts = {
    "idle": IDLE_MIB,
    "bodies": (env_int("ARBITER_BODY_MEMORY_BYTES") or 0) / mib,
    "parse": (workers or 0) * PARSE_FACTOR * (env_int("ARBITER_MAX_BODY_BYTES") or 0) / mib,
    "answers": (env_int("ARBITER_ANSWER_MEMORY_BYTES") or 0) / mib,
    "imports": (workers or 0) * (env_int("ARBITER_MAX_IMPORT_BYTES") or 0) / mib,
    "connections": (env_int("ARBITER_MAX_CONNECTIONS") or 0) * CONNECTION_KIB / 1024,
}
need_mib = sum(parts.values())
limit_mib = quantity_mib(limits["memory"]) if "memory" in limits else 0
check(need_mib <= limit_mib,
      "memory at the connection cap " + " + ".join(f"{k} {v:g}" for k, v in parts.items())
      + f" = {need_mib:g} MiB <= the limit {limit_mib:g} MiB")

# Probes and ports.
ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
for name, var in (("http", "ARBITER_ADDR"), ("probes", "ARBITER_PROBE_ADDR")):
    port_value = env.get(var, "").rsplit(":", 1)[-1]
    check(str(ports.get(name)) == port_value,
          f"containerPort `{name}` ({ports.get(name)}) = {var}'s port ({port_value})")
for probe, path, port in (("livenessProbe", "/healthz", "probes"), ("readinessProbe", "/readyz", "http"),
                          ("startupProbe", "/healthz", "probes")):
    got = c.get(probe, {}).get("httpGet", {})
    check(got.get("path") == path and got.get("port") in (port, ports.get(port)),
          f"{probe} GET {path} on the {port} port ({got})")
annotations = spec["template"]["metadata"].get("annotations", {})
check(annotations.get("prometheus.io/port") == str(ports.get("probes")),
      f"metrics scraped on the probes port ({annotations.get('prometheus.io/port')})")
ready = c.get("readinessProbe", {})
notice = ready.get("periodSeconds", 10) * ready.get("failureThreshold", 3)
check(unready is not None and notice <= unready,
      f"readiness notices the 503 within the unready period ({notice} s <= {unready} s)")

# Security context.
sc, psc = c.get("securityContext", {}), pod.get("securityContext", {})
check(sc.get("readOnlyRootFilesystem") is True, "read-only root filesystem")
check(sc.get("allowPrivilegeEscalation") is False, "no privilege escalation")
check(sc.get("capabilities", {}).get("drop") == ["ALL"], "every capability dropped")
check((sc.get("runAsNonRoot") or psc.get("runAsNonRoot")) is True
      and (sc.get("runAsUser") or psc.get("runAsUser")) == 10001,
      "runs as the image's non-root user 10001")

# Service, PDB, HPA.
for kind in ("Service", "PodDisruptionBudget", "HorizontalPodAutoscaler"):
    check(any(k == kind for k, _ in docs), f"a {kind} exists")
for (kind, name), doc in docs.items():
    if kind == "Service":
        sel = doc["spec"].get("selector", {})
        check(sel and all(labels.get(k) == v for k, v in sel.items()),
              f"Service {name} selects the pods ({sel})")
        targets = {p.get("targetPort") for p in doc["spec"]["ports"]}
        check(targets <= {"http", ports.get("http")}, f"Service {name} targets the http port")
    elif kind == "PodDisruptionBudget":
        sel = doc["spec"]["selector"].get("matchLabels", {})
        check(sel and all(labels.get(k) == v for k, v in sel.items()),
              f"PodDisruptionBudget {name} selects the pods ({sel})")
    elif kind == "HorizontalPodAutoscaler":
        ref = doc["spec"]["scaleTargetRef"]
        check(ref["kind"] == "Deployment" and ref["name"] == dep["metadata"]["name"],
              f"HPA {name} scales Deployment {dep['metadata']['name']}")
        cpu = [m for m in doc["spec"].get("metrics", [])
               if m.get("type") == "Resource" and m["resource"]["name"] == "cpu"]
        check(bool(cpu), f"HPA {name} scales on CPU")
        check(doc["spec"].get("minReplicas", 1) >= 2,
              f"HPA {name} keeps at least 2 replicas ({doc['spec'].get('minReplicas')})")

print(f"validate-k8s: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
