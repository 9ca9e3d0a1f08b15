#!/usr/bin/env bash
# A real S3-compatible object store on loopback for the tests, the bench and the local stack: OpenStack Swift
# from Debian with its S3 layer (s3api), one replica, tempauth, memcached.
#
#   scripts/swift.sh install                 installs the Debian packages (needs root or sudo)
#   scripts/swift.sh start DIR [PORT]        starts it with its rings, disks and logs in DIR; prints the env
#   scripts/swift.sh stop DIR                stops what `start DIR` started
#
# `start` prints the settings a process needs, ready for `eval`:
#   S3_ENDPOINT=http://127.0.0.1:PORT AWS_ACCESS_KEY_ID=test:tester AWS_SECRET_ACCESS_KEY=testing ...
set -euo pipefail

PACKAGES=(swift swift-proxy swift-object swift-container swift-account python3-swift memcached)

install_swift() {
  if command -v swift-proxy-server >/dev/null 2>&1 && command -v memcached >/dev/null 2>&1; then return; fi
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
}

# Waits up to 60 s for a 2xx at the URL, or with "any" for any HTTP answer at all (a storage server asked
# for nothing answers 400, and that says it listens).
wait_for() {
  local url=$1 fail=-f deadline=$((SECONDS + 60))
  [ "${2:-}" = any ] && fail=
  until curl $fail -sS -o /dev/null "$url" 2>/dev/null; do
    if [ $SECONDS -gt $deadline ]; then
      echo "swift.sh: nothing answered at $url within 60 s; logs in $DIR/log" >&2
      exit 1
    fi
    sleep 0.1
  done
}

start_swift() {
  DIR=$(realpath -m "$1")
  local port=${2:-18080}
  local account=$((port + 1)) container=$((port + 2)) object=$((port + 3)) memcache=$((port + 4))
  local user
  user=$(id -un)
  if curl -fsS -o /dev/null "http://127.0.0.1:$port/healthcheck" 2>/dev/null; then
    echo "swift.sh: something already answers on port $port (another Swift?); stop it or choose another port" >&2
    exit 1
  fi
  mkdir -p "$DIR/conf" "$DIR/node/d1" "$DIR/log" "$DIR/run"

  # swift reads the hash path prefix and suffix from /etc/swift/swift.conf and nowhere else
  if [ ! -f /etc/swift/swift.conf ]; then
    echo "swift.sh: /etc/swift/swift.conf is missing; run: scripts/swift.sh install" >&2
    exit 1
  fi

  for server in account container object; do
    local p
    case $server in account) p=$account ;; container) p=$container ;; object) p=$object ;; esac
    cat >"$DIR/conf/$server-server.conf" <<EOF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $p
workers = 0
user = $user
swift_dir = $DIR/conf
devices = $DIR/node
mount_check = false
disable_fallocate = true
log_facility = LOG_LOCAL2
log_level = WARNING

[pipeline:main]
pipeline = $server-server

[app:$server-server]
use = egg:swift#$server
EOF
  done
  if [ ! -f "$DIR/conf/object.ring.gz" ]; then
    # the three rings in one interpreter, Swift's own (swift-ring-builder's): the tool takes one per step,
    # nine in all, about 8 s of the start; the rings are the same (create 10 1 1, one device, rebalance)
    local python
    python=$(sed -n '1s/^#! *//p' "$(command -v swift-ring-builder)")
    (cd "$DIR/conf" && "$python" - "$account" "$container" "$object" <<'RINGS'
import sys
from swift.common.ring import RingBuilder

for name, port in zip(('account', 'container', 'object'), sys.argv[1:]):
    builder = RingBuilder(10, 1, 1)
    builder.add_dev({'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port), 'device': 'd1', 'weight': 1})
    builder.rebalance()
    builder.save(name + '.builder')
    builder.get_ring().save(name + '.ring.gz')
RINGS
    )
  fi

  cat >"$DIR/conf/proxy-server.conf" <<EOF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $port
workers = 0
user = $user
swift_dir = $DIR/conf
log_facility = LOG_LOCAL2
log_level = WARNING

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
# each ring has one device: a proxy that counts errors against it (a server still starting, or one stopped
# by a test) stops asking it for 60 s after 10 of them, which turns a restart of seconds into a minute of
# 503s; with no other device to ask instead, every request must keep trying the one there is
error_suppression_limit = 1000000

[filter:s3api]
use = egg:swift#s3api
location = us-east-1

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$memcache

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
EOF

  local memcached_user=()
  [ "$(id -u)" = 0 ] && memcached_user=(-u nobody)
  memcached -l 127.0.0.1 -p "$memcache" -U 0 "${memcached_user[@]}" >"$DIR/log/memcached.log" 2>&1 &
  echo $! >"$DIR/run/memcached.pid"
  for server in account container object proxy; do
    "swift-$server-server" "$DIR/conf/$server-server.conf" >"$DIR/log/$server.log" 2>&1 &
    echo $! >"$DIR/run/$server.pid"
  done
  # the servers behind the proxy answer (any HTTP answer) before the proxy is called ready
  for p in $account $container $object; do
    wait_for "http://127.0.0.1:$p/" any
  done
  wait_for "http://127.0.0.1:$port/healthcheck"
  # the first S3 call also waits for the account, container and object servers behind the proxy
  local deadline=$((SECONDS + 60))
  until curl -fsS -o /dev/null -H 'X-Auth-User: test:tester' -H 'X-Auth-Key: testing' \
    "http://127.0.0.1:$port/auth/v1.0" 2>/dev/null; do
    [ $SECONDS -le $deadline ] || {
      echo "swift.sh: tempauth did not answer; logs in $DIR/log" >&2
      exit 1
    }
    sleep 0.2
  done
  echo "S3_ENDPOINT=http://127.0.0.1:$port AWS_ACCESS_KEY_ID=test:tester AWS_SECRET_ACCESS_KEY=testing S3_REGION=us-east-1"
}

# Whether one of the processes still runs (a zombie has let go of its ports: it counts as gone).
any_alive() {
  local pid state
  for pid in "$@"; do
    state=$(ps -o stat= -p "$pid" 2>/dev/null || true)
    [[ -n "$state" && "$state" != Z* ]] && return 0
  done
  return 1
}

# Returns once every process is gone: a server still finishing its requests holds its port, and a start
# right after would find the port taken and leave that server out (the proxy and tempauth answering, but
# every bucket request failing). What has not exited after 10 s is killed.
stop_swift() {
  DIR=$(realpath -m "$1")
  local pids=()
  for pidfile in "$DIR"/run/*.pid; do
    [ -f "$pidfile" ] || continue
    pids+=("$(cat "$pidfile")")
    rm -f "$pidfile"
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill "${pids[@]}" 2>/dev/null || true
  local deadline=$((SECONDS + 10))
  while any_alive "${pids[@]}"; do
    if [ $SECONDS -gt $deadline ]; then
      kill -9 "${pids[@]}" 2>/dev/null || true
      break
    fi
    sleep 0.1
  done
}

case "${1:-}" in
  install) install_swift ;;
  start) start_swift "${2:?usage: swift.sh start DIR [PORT]}" "${3:-}" ;;
  stop) stop_swift "${2:?usage: swift.sh stop DIR}" ;;
  *)
    echo "usage: scripts/swift.sh install | start DIR [PORT] | stop DIR" >&2
    exit 2
    ;;
esac
