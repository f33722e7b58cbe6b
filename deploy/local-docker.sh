#!/usr/bin/env bash
# A Docker engine for deploy/test-docker.sh on a machine that has none, such as CI's: Debian's
# docker.io (its daemon started here when none answers), and the image's base,
# debian:bookworm-slim, made from Debian's own packages (debootstrap, then `docker import`) when
# no container registry can be reached to pull it. Run as root; CI runs it from .ci/run.
#
#   bash deploy/local-docker.sh && bash deploy/test-docker.sh
#
# It changes nothing where a daemon already answers and the base image is there. Each step that
# cannot be done here (no apt, a daemon that will not start) ends the script with its reason and
# exit status 1: test-docker.sh then says SKIPPED with the same reason.
set -euo pipefail

log=${DOCKERD_LOG:-/tmp/dockerd.log}
need=()
command -v dockerd >/dev/null || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || { echo "no apt-get to install ${need[*]}" >&2; exit 1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Debian's client (20.10, BuildKit built in); another docker earlier on the PATH may lack buildx.
docker() { command /usr/bin/docker "$@"; }

if ! docker info >/dev/null 2>&1; then
  # Started on its own session so that it outlives this script (CI's tests run after it).
  setsid dockerd >"$log" 2>&1 < /dev/null &
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  docker info >/dev/null 2>&1 || {
    echo "the Docker daemon did not start; its log: $log" >&2
    tail -5 "$log" >&2
    exit 1
  }
fi

if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
  docker pull -q debian:bookworm-slim >/dev/null 2>&1 || {
    # The minimal variant: what the slim image has (apt, dpkg, bash), about a minute to fetch.
    rootfs=$(mktemp -d)
    trap 'rm -rf "$rootfs"' EXIT
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
    tar -C "$rootfs" -c . | docker import - debian:bookworm-slim >/dev/null
  }
fi
echo "Docker $(docker version --format '{{.Server.Version}}') is running, with debian:bookworm-slim"
