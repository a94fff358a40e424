"""Worker "hosts" of a test's own: network namespaces on one bridge, each behind a link the test
can cut and heal.

``NetLab(hosts=3).create()`` makes, all named after one token unique to this run:

- a bridge in the root namespace, the *hub*, holding ``10.x.y.1/24`` (a /24 of 10/8 that no
  address or route of the machine uses); Redis and the blog a test starts listen there;
- per host a namespace with its loopback up and one end of a veth pair, ``10.x.y.(10+i)/24``;
  the other end is a port of the bridge, in the root namespace.

A namespace has no route but its /24: whatever runs in it reaches the hub and nothing else, and
nothing is forwarded out of the machine. :meth:`NetLab.cut` sets a host's bridge port down: the
host's end stays up with its address and route but loses the carrier, so its packets are
dropped, as a pulled cable or a dead switch port drops them (its connections see no reset, their
data waits in TCP retransmission); :meth:`NetLab.heal` sets the port up again.

:meth:`NetLab.destroy` removes the namespaces (their veth pairs go with them) and the bridge; a
lab left behind by a test process that was killed is removed by the next one (the bridge's alias
names the process that made it).
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import uuid
from dataclasses import dataclass, field

from tests import skip_or_fail

#: Marks the bridges made here (``ip link ... alias``), with the creating process's pid.
ALIAS_PREFIX = "harvest-test-netlab pid="


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``ip <args>``; a failure raises with ip's own message."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done


def require_netns() -> None:
    """Skip (CI: fail) unless this process can make network namespaces, links and a bridge."""
    if shutil.which("ip") is None:
        skip_or_fail("the ip command is not installed (apt-get install iproute2)")
    if os.geteuid() != 0:
        skip_or_fail("network namespaces need root (ip netns add): run the tests as root")
    probe = f"hvprobe-{os.getpid()}"
    done = ip("netns", "add", probe, check=False)
    ip("netns", "del", probe, check=False)
    if done.returncode != 0:
        skip_or_fail(f"ip netns add failed here ({done.stderr.strip()}): no network namespaces")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale() -> None:
    """Remove the labs of test processes that died without cleaning up (killed mid-test)."""
    for line in ip("-o", "link", "show", "type", "bridge").stdout.splitlines():
        name, _, rest = line.partition(": ")[2].partition(":")
        alias = rest.partition(" alias ")[2].strip()
        if not alias.startswith(ALIAS_PREFIX):
            continue
        pid = alias.removeprefix(ALIAS_PREFIX).split()[0]
        if pid.isdigit() and not _alive(int(pid)):
            token = name.removeprefix("hv").removesuffix("b")
            for ns in ip("netns", "list").stdout.split():
                if ns.startswith(f"hv-{token}-"):
                    ip("netns", "del", ns, check=False)
            ip("link", "del", name, check=False)


def _used_networks() -> list[ipaddress.IPv4Network]:
    """Every IPv4 network the machine has an address or a route in."""
    used = []
    lines = ip("-4", "-o", "addr", "show").stdout.splitlines()
    lines += ip("-4", "route", "show", "table", "all").stdout.splitlines()
    for line in lines:
        for word in line.split():
            if word[0].isdigit() and word.count(".") == 3:
                try:
                    used.append(ipaddress.IPv4Network(word, strict=False))
                except ValueError:
                    continue
    return used


def _free_subnet(token: str) -> ipaddress.IPv4Network:
    """A /24 of 10/8, picked from ``token``, that overlaps nothing on this machine."""
    used = _used_networks()
    start = int(token, 16)
    for step in range(4096):
        n = (start + step * 7919) % (250 * 256)
        net = ipaddress.IPv4Network(f"10.{n // 256 + 3}.{n % 256}.0/24")
        if not any(net.overlaps(u) for u in used):
            return net
    raise RuntimeError("no free /24 in 10/8 for the test's network namespaces")


@dataclass
class NetLab:
    """Namespaces ("hosts") on a bridge (the "hub"); see the module docstring."""

    hosts: int = 3
    token: str = field(default_factory=lambda: uuid.uuid4().hex[:6])
    subnet: ipaddress.IPv4Network | None = None
    made: list[str] = field(default_factory=list)

    @property
    def bridge(self) -> str:
        return f"hv{self.token}b"

    def namespace(self, host: int) -> str:
        return f"hv-{self.token}-{host}"

    def port(self, host: int) -> str:
        """The host's bridge port (root namespace): what :meth:`cut` sets down."""
        return f"hv{self.token}r{host}"

    def _host_end(self, host: int) -> str:
        return f"hv{self.token}n{host}"

    @property
    def hub(self) -> str:
        """The bridge's address: where servers for the hosts listen."""
        assert self.subnet is not None
        return str(self.subnet.network_address + 1)

    def address(self, host: int) -> str:
        """The host's address on the bridge (its packets come from it)."""
        assert self.subnet is not None
        return str(self.subnet.network_address + 10 + host)

    def prefix(self, host: int) -> list[str]:
        """The command prefix that runs a program on ``host``."""
        return ["ip", "netns", "exec", self.namespace(host)]

    def create(self) -> NetLab:
        """Make the bridge and the hosts (see the module docstring); destroys what it made on error."""
        sweep_stale()
        self.subnet = _free_subnet(self.token)
        bits = self.subnet.prefixlen
        try:
            ip("link", "add", self.bridge, "type", "bridge")
            self.made.append(self.bridge)
            ip("link", "set", self.bridge, "alias", f"{ALIAS_PREFIX}{os.getpid()}")
            ip("addr", "add", f"{self.hub}/{bits}", "dev", self.bridge)
            ip("link", "set", self.bridge, "up")
            for host in range(self.hosts):
                ns, end = self.namespace(host), self._host_end(host)
                ip("netns", "add", ns)
                self.made.append(ns)
                ip("link", "add", self.port(host), "type", "veth", "peer", "name", end)
                ip("link", "set", end, "netns", ns)
                ip("link", "set", self.port(host), "master", self.bridge)
                ip("link", "set", self.port(host), "up")
                ip("-n", ns, "addr", "add", f"{self.address(host)}/{bits}", "dev", end)
                ip("-n", ns, "link", "set", end, "up")
                ip("-n", ns, "link", "set", "lo", "up")
        except BaseException:
            self.destroy()
            raise
        return self

    def cut(self, host: int) -> None:
        """Cut ``host`` off: its bridge port down, its packets dropped (no reset, no error)."""
        ip("link", "set", self.port(host), "down")

    def heal(self, host: int) -> None:
        """Connect ``host`` again."""
        ip("link", "set", self.port(host), "up")

    def destroy(self) -> None:
        """Remove the namespaces (with their veth pairs) and the bridge; never raises."""
        for name in reversed(self.made):
            if name == self.bridge:
                ip("link", "del", name, check=False)
            else:
                ip("netns", "del", name, check=False)
        for host in range(self.hosts):  # a pair whose namespace was never made
            ip("link", "del", self.port(host), check=False)
        self.made.clear()
