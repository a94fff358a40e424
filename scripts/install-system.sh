#!/usr/bin/env bash
# System packages the tests and the demo use: a browser for JavaScript pages, redis-server and
# nginx for scale-out and benchmarks, strace for the tests that kill a command at a chosen system
# call, and two real documentation sites for extraction tests.
# Idempotent: installs only what is missing. Needs root (or sudo) and apt-get; skips otherwise.
set -euo pipefail
pkgs=()
command -v chromium >/dev/null 2>&1 || pkgs+=(chromium)
command -v redis-server >/dev/null 2>&1 || pkgs+=(redis-server)
command -v nginx >/dev/null 2>&1 || pkgs+=(nginx-light)
command -v strace >/dev/null 2>&1 || pkgs+=(strace)
[ -d /usr/share/doc/mkdocs/html ] || pkgs+=(mkdocs-doc)
[ -d /usr/share/doc/python-scrapy-doc/html ] || pkgs+=(python-scrapy-doc)
# ip netns (iproute2): the scale-out's network-partition test runs its workers on hosts of its own.
command -v ip >/dev/null 2>&1 || pkgs+=(iproute2)
if [ ${#pkgs[@]} -eq 0 ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system: apt-get not found; install ${pkgs[*]} yourself (tests needing them skip)" >&2
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-system: not root and no sudo; install ${pkgs[*]} yourself (tests needing them skip)" >&2
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${pkgs[@]}" >/dev/null
