#!/usr/bin/env bash
# Runs the official MCP conformance suite's server scenarios against POST /mcp
# of the real service (`npm start`, on a fresh embedded database in a temp
# DATA_DIR, on a free port) and holds the outcome to
# scripts/mcp-conformance-expected-failures.yaml with the suite's own
# --expected-failures: it fails when a scenario fails that is not listed
# there, and when a listed one passes (the list must be kept honest).
#
# The suite cannot send a header, and /mcp wants a bearer token: a loopback
# proxy (node:http, below) adds `Authorization: Bearer <demo token>` and
# forwards everything else as it came, Host and Origin included, so the DNS
# rebinding scenario's foreign Host reaches the service itself.
#
# Pinned for a reproducible run: the suite, the Node 22 it needs, and the
# MCP SDK it speaks with (its client; the suite asks for ^1.27.1).
set -uo pipefail
cd "$(dirname "$0")/.."

SUITE="@modelcontextprotocol/conformance@0.1.16"
SUITE_NODE="node@22.23.3"
SUITE_SDK="@modelcontextprotocol/sdk@1.32.2"
expected="$PWD/scripts/mcp-conformance-expected-failures.yaml"

work=$(mktemp -d)
data_dir="$work/data"
server_log="$work/server.log"
suite_log="$work/suite.log"
server_pid=""
proxy_pid=""
started=$SECONDS

# The server runs in its own process group (npm, then tsx, then node): the
# whole group is stopped, gently first.
stop_server() {
  [ -n "$server_pid" ] || return 0
  kill -TERM -- "-$server_pid" 2>/dev/null
  for _ in $(seq 1 20); do
    kill -0 -- "-$server_pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -KILL -- "-$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
  server_pid=""
}
cleanup() {
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null
  stop_server
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "mcp-conformance: $*"; tail -n 40 "$server_log" 2>/dev/null; exit 1; }

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
DATA_DIR="$data_dir" PORT="$port" HOST=127.0.0.1 setsid npm start >"$server_log" 2>&1 &
server_pid=$!
code=""
for _ in $(seq 1 180); do
  code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready" || true)
  [ "$code" = "200" ] && break
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited before it was ready"
  sleep 1
done
[ "$code" = "200" ] || fail "/ready never answered 200 (last: $code)"
token=$(node -e "process.stdout.write(require('$data_dir/demo-tokens.json').ben)") || fail "no demo tokens were written"
echo "mcp-conformance: the service is ready on port $port after $((SECONDS - started)) s"

# The proxy: the request as the suite sent it (method, path, every header,
# body), plus the token; the answer as the service gave it, streamed.
proxy_port_file="$work/proxy-port"
TARGET_PORT="$port" TOKEN="$token" node -e '
  const http = require("node:http")
  const proxy = http.createServer((request, response) => {
    const headers = { ...request.headers, authorization: `Bearer ${process.env.TOKEN}` }
    const upstream = http.request(
      { host: "127.0.0.1", port: process.env.TARGET_PORT, method: request.method, path: request.url, headers },
      (answer) => {
        response.writeHead(answer.statusCode, answer.headers)
        answer.pipe(response)
      }
    )
    upstream.on("error", (error) => {
      if (response.headersSent) return response.destroy(error)
      response.writeHead(502, { "content-type": "text/plain" })
      response.end(`proxy: ${error.message}`)
    })
    request.pipe(upstream)
  })
  proxy.listen(0, "127.0.0.1", () => require("node:fs").writeFileSync(process.argv[1], String(proxy.address().port)))
' "$proxy_port_file" &
proxy_pid=$!
for _ in $(seq 1 50); do
  [ -s "$proxy_port_file" ] && break
  sleep 0.1
done
[ -s "$proxy_port_file" ] || fail "the token proxy did not start"
url="http://127.0.0.1:$(cat "$proxy_port_file")/mcp"

# The suite's active server scenarios (all but the two it marks pending),
# those for 2025-06-18 and 2025-11-25 alike: its client negotiates 2025-11-25
# for every one, so a run per protocol version would repeat the same requests.
echo "mcp-conformance: running $SUITE on $SUITE_NODE against /mcp (through the token proxy at $url)"
suite_started=$SECONDS
URL="$url" EXPECTED="$expected" RESULTS="$work/results" npm_config_loglevel=error \
  npx -y -p "$SUITE_NODE" -p "$SUITE_SDK" -p "$SUITE" -c \
  'echo "suite: conformance $(conformance --version), node $(node --version)"; conformance server --url "$URL" --expected-failures "$EXPECTED" -o "$RESULTS"' \
  >"$suite_log" 2>&1
status=$?
stop_server

# The suite prints every check of every scenario; the summary and the
# comparison with the list are what matter here (the rest on failure).
grep -m 1 '^suite: ' "$suite_log"
if ! grep -q '=== SUMMARY ===' "$suite_log"; then
  cat "$suite_log"
  echo "mcp-conformance: the suite did not run to its summary (exit $status)"
  exit 1
fi
sed -n '/=== SUMMARY ===/,$p' "$suite_log"
# What went wrong in each scenario that failed unlisted (a stale entry passed: nothing to show).
unexpected=$(sed 's/\x1b\[[0-9;]*m//g' "$suite_log" | sed -n '/^Unexpected failures/,/^$/p' | sed -n 's/^  ✗ //p')
for scenario in $unexpected; do
  echo
  echo "=== $scenario: its failed checks ==="
  for checks in "$work"/results/server-"$scenario"-*/checks.json; do
    node -e '
      const checks = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))
      for (const check of checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING")) {
        console.log(`[${check.status}] ${check.id}: ${check.errorMessage ?? check.description}`)
        if (check.details !== undefined) console.log(`  details: ${JSON.stringify(check.details).slice(0, 2000)}`)
      }
    ' "$checks"
  done
done
echo
echo "mcp-conformance: suite $((SECONDS - suite_started)) s, in all $((SECONDS - started)) s; expected failures: ${expected#"$PWD/"}"
if [ "$status" -eq 0 ]; then
  echo "mcp-conformance: passed (every failure is listed, every listed scenario still fails)"
else
  echo "mcp-conformance: FAILED (exit $status): a scenario failed that is not listed, or a listed one passes"
fi
exit "$status"
