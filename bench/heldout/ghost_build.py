"""Build the held-out Ghost site: run Ghost on loopback, import the sources, mirror it to files.

    python bench/heldout/ghost_build.py SRC OUT SERVED

Ghost is a server, not a generator: build.sh's ``ghost`` branch runs this. It starts the npm
package ``ghost`` (unpacked in ``$NPMGEN_GHOST/ghost``, as ghost-cli would, with its
dependencies and sqlite3 built from source: build.sh's header) in development mode, as
``ghost install local`` does, on a fresh SQLite database and content folder in a scratch folder,
its site URL set to its own loopback origin ``http://127.0.0.1:PORT``. Then, through the Admin
API: the owner's setup (Ana Lima, the import's user's email), the import of
``small-lessons.ghost.json`` (Settings > Import/Export's endpoint), Casper activated (its
package.json ``config`` from ``casper-config.json``: 5 posts a page), the starter content of a
new install deleted (the "Coming soon" post, the "About this site" page, the "News" tag).
``wget --mirror`` (robots.txt obeyed, one host, no JavaScript, images or fonts fetched) from the
home page, ``/rss/``, ``/sitemap.xml`` and each sitemap it lists writes the site to OUT; Ghost
is stopped; in the mirrored text files the loopback origin, in every spelling, becomes
``https://ghost.heldout.example`` (Ghost takes one site URL, the address it serves: it cannot
be told another without being served there). Pages at paths ending in ``/`` are saved as
``…/index.html``; those Ghost answers as XML (the RSS feeds) are named with their content type in
SERVED (the site's ``served.json``, beside its ``site/``), which tests/devsites.py's
``apply_served`` reads.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

HOST = "https://ghost.heldout.example"
OWNER = {"name": "Ana Lima", "email": "ana@example.com", "password": "Qx7-vellum-orchard-41"}
#: The starter content a new Ghost writes (its fixtures): not part of this site.
STARTER_POSTS = ("coming-soon",)
STARTER_PAGES = ("about",)
STARTER_TAGS = ("news",)
#: Nothing but text is fetched (the other held-out sites keep HTML, XML, CSS, JSON and text).
REJECT = r"\.(js|mjs|map|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|eot|mp4|webm)(\?.*)?$"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Admin:
    """Ghost's Admin API with a staff session (cookie), as Ghost Admin itself uses it."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        raw: bytes | None = None,
        ctype: str = "application/json",
    ) -> dict:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(f"{self.origin}/ghost/api/admin/{path}", data=data, method=method)
        req.add_header("Origin", self.origin)
        req.add_header("Accept-Version", "v5.0")
        if data is not None:
            req.add_header("Content-Type", ctype)
        try:
            with self.opener.open(req, timeout=120) as resp:
                text = resp.read().decode()
        except urllib.error.HTTPError as e:
            raise SystemExit(f"ghost_build: {method} {path}: {e.code} {e.read().decode()[:500]}") from None
        try:
            return json.loads(text)
        except ValueError:  # "Created" (a new session), or nothing
            return {}

    def upload(self, path: str, field: str, file: Path) -> dict:
        boundary = uuid.uuid4().hex
        raw = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{file.name}"\r\n'
                "Content-Type: application/json\r\n\r\n"
            ).encode()
            + file.read_bytes()
            + f"\r\n--{boundary}--\r\n".encode()
        )
        return self.call("POST", path, raw=raw, ctype=f"multipart/form-data; boundary={boundary}")


def wait_up(origin: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"ghost_build: Ghost exited:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{origin}/ghost/api/admin/site/", timeout=5) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(2)
    raise SystemExit(f"ghost_build: Ghost did not answer:\n{log.read_text()[-3000:]}")


def load(admin: Admin, src: Path) -> None:
    admin.call("POST", "authentication/setup/", {"setup": [{**OWNER, "blogTitle": "Small Lessons"}]})
    admin.call("POST", "session/", {"username": OWNER["email"], "password": OWNER["password"]})
    # Deleting a published post makes Ghost send webmentions to the sites it linked (the
    # starter post links ghost.org): not while the site is private (a password to read it).
    admin.call(
        "PUT",
        "settings/",
        {"settings": [{"key": "is_private", "value": True}, {"key": "password", "value": "starter-cleanup"}]},
    )
    for kind, slugs in (("posts", STARTER_POSTS), ("pages", STARTER_PAGES)):
        for slug in slugs:
            found = admin.call("GET", f"{kind}/slug/{slug}/")[kind][0]
            admin.call("DELETE", f"{kind}/{found['id']}/")
    for slug in STARTER_TAGS:
        found = admin.call("GET", f"tags/slug/{slug}/")["tags"][0]
        admin.call("DELETE", f"tags/{found['id']}/")
    admin.call("PUT", "settings/", {"settings": [{"key": "is_private", "value": False}]})
    result = admin.upload("db/", "importfile", src / "small-lessons.ghost.json")
    problems = result.get("problems") or []
    if problems:
        print(f"ghost_build: import problems: {json.dumps(problems)[:1500]}", file=sys.stderr)
    # The importer tags every imported post with an internal tag named after the import's time
    # ("#Import 2026-12-06 21:53"): shown nowhere but in each post's body class; deleted.
    for tag in admin.call("GET", "tags/?limit=all&filter=visibility:internal")["tags"]:
        if tag["slug"].startswith("hash-import-"):
            admin.call("DELETE", f"tags/{tag['id']}/")
    admin.call("PUT", "themes/casper/activate/")


def mirror(origin: str, dest: Path) -> list[str]:
    """wget --mirror the site from its home page, feed and sitemaps into dest; the URLs it started from."""
    with urllib.request.urlopen(f"{origin}/sitemap.xml", timeout=30) as resp:
        index = resp.read().decode()
    starts = [
        f"{origin}/",
        f"{origin}/rss/",
        f"{origin}/sitemap.xml",
        *re.findall(r"<loc>([^<]+)</loc>", index),
    ]
    for url in starts:
        with urllib.request.urlopen(url, timeout=30) as resp:
            starts += re.findall(r"<loc>([^<]+)</loc>", resp.read().decode()) if url.endswith(".xml") else []
    starts = list(dict.fromkeys(u for u in starts if u.startswith(origin + "/")))
    subprocess.run(
        [
            "wget",
            "--mirror",
            "--no-host-directories",
            "--quiet",
            "--reject-regex",
            REJECT,
            "--directory-prefix",
            str(dest),
            *starts,
        ],
        check=False,  # wget exits 8 when a linked page answers 404 (Casper links none, but stay quiet)
    )
    return starts


def xml_types(origin: str, dest: Path) -> dict[str, str]:
    """The content type of each page saved as index.html that Ghost answered with XML."""
    types = {}
    for f in sorted(dest.rglob("index.html")):
        if not f.read_bytes().lstrip().startswith(b"<?xml"):
            continue
        rel = "/" + f.relative_to(dest).as_posix()
        with urllib.request.urlopen(origin + rel[: -len("index.html")], timeout=30) as resp:
            types[rel] = resp.headers["Content-Type"]
    return types


def rewrite(origin: str, dest: Path) -> None:
    """The loopback origin, in every spelling Ghost writes, becomes the site's own host."""
    port = origin.rsplit(":", 1)[1]
    pairs = [
        (origin, HOST),
        (origin.replace("/", "\\/"), HOST.replace("/", "\\/")),
        (origin.replace("/", "&#x2F;"), HOST.replace("/", "&#x2F;")),
        (origin.replace("/", "&#47;"), HOST.replace("/", "&#47;")),
        ("http%3A%2F%2F127.0.0.1%3A" + port, "https%3A%2F%2Fghost.heldout.example"),
        ("127.0.0.1:" + port, "ghost.heldout.example"),  # protocol-relative //127.0.0.1:PORT
    ]
    for f in dest.rglob("*"):
        if not f.is_file() or f.suffix not in {".html", ".xml", ".css", ".json", ".txt"}:
            continue
        text = f.read_text(encoding="utf-8")
        for old, new in pairs:
            text = text.replace(old, new)
        f.write_text(text, encoding="utf-8")
    left = [
        str(f)
        for f in dest.rglob("*")
        if f.is_file() and re.search(rb"(127\.0\.0\.1|localhost)(:|%3A)\d", f.read_bytes())
    ]
    if left:
        raise SystemExit(f"ghost_build: loopback origin left in {left[:5]}")


def main(src: Path, out: Path, served: Path) -> int:
    ghost = Path(os.environ.get("NPMGEN_GHOST", "/tmp/npmgen-ghost")) / "ghost"
    work = Path(tempfile.mkdtemp(prefix="ghost-build-"))
    content = work / "content"
    shutil.copytree(ghost / "content", content)
    (content / "data").mkdir(exist_ok=True)
    (content / "settings").mkdir(exist_ok=True)
    shutil.copy(src / "routes.yaml", content / "settings" / "routes.yaml")
    theme = content / "themes" / "casper" / "package.json"
    meta = json.loads(theme.read_text(encoding="utf-8"))
    meta["config"].update(json.loads((src / "casper-config.json").read_text(encoding="utf-8")))
    theme.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    # Ghost reads its config from the folder it runs in (its own, which root-utils needs to be):
    # given here as environment variables instead (nconf, "__" between keys, JSON values parsed).
    config = {
        "url": origin,
        "server__host": "127.0.0.1",
        "server__port": port,
        "database__client": "sqlite3",
        "database__connection__filename": content / "data" / "ghost.db",
        "database__useNullAsDefault": "true",
        "paths__contentPath": content,
        # No request leaves the machine: no update check, Gravatar, pings (privacy's "tinfoil"
        # turns every such feature off); structured data (JSON-LD, Open Graph) back on.
        "privacy__useTinfoil": "true",
        "privacy__useStructuredData": "true",
        "mail__transport": "stub",
        "security__staffDeviceVerification": "false",
        "logging__level": "warn",
        "logging__transports": '["stdout"]',
    }
    log = work / "ghost.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            ["node", "index.js"],
            cwd=ghost,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "NODE_ENV": "development", **{k: str(v) for k, v in config.items()}},
        )
    try:
        wait_up(origin, proc, log)
        load(Admin(origin), src)
        time.sleep(5)  # the URL service routes the imported posts
        dest = work / "mirror"
        mirror(origin, dest)
        types = xml_types(origin, dest)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            if re.search(r"WARN|ERROR", line):
                print(f"ghost_build: Ghost: {line}", file=sys.stderr)
    # wget names a file fetched with a query string (screen.css?v=...) with it: the path alone.
    for f in list(dest.rglob("*?*")):
        f.rename(f.with_name(f.name.split("?", 1)[0]))
    rewrite(origin, dest)
    # Beside site/, as WordPress' (tests/devsites.py's apply_served reads it).
    served.write_text(
        json.dumps({"content_types": dict(sorted(types.items()))}, ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
    shutil.copytree(dest, out, dirs_exist_ok=True)
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
