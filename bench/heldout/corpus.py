"""The posts of the held-out sites, written once for this set (CC0), as Markdown with front matter.

``write_sources.py`` turns them into each generator's source format under
``tests/fixtures/heldout/<generator>/src``; those files are the generators' input and what
``make_oracle.py`` reads back. Varied on purpose: code in many languages, tables, nested lists,
headings named "Menu", "Tags", "Author", "Comments", "Related", a literal backspace (U+0008) in
the text, German, Japanese, Russian, Spanish and Chinese posts, one very short post, a leap-day
date, one draft (never published) and one page that is not a post.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Post:
    slug: str
    title: str
    date: str
    body: str
    tags: tuple[str, ...] = ()
    category: str = "notes"
    draft: bool = False
    #: Where a docs generator files it.
    section: str = "guide"
    extra: dict[str, str] = field(default_factory=dict)


F = "```"

POSTS: tuple[Post, ...] = (
    Post(
        "python-generators-tour",
        "Generators in Python: a practical tour",
        "2023-01-15",
        f"""A generator is a function that remembers where it stopped. This post walks through the
three ways I use them every week: streaming a large file, building pipelines, and producing
test data lazily.

## Streaming a file

Reading a log of several gigabytes line by line keeps the memory flat:

{F}python
def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            yield line.rstrip("\\n")
{F}

## Pipelines

Generators compose. Each stage pulls from the previous one only when it needs a value:

{F}python
def only_errors(lines):
    return (line for line in lines if " ERROR " in line)

for line in only_errors(read_lines("app.log")):
    print(line)
{F}

## Comparing the options

| approach | memory | laziness | readability |
|---|---|---|---|
| list comprehension | O(n) | no | high |
| generator expression | O(1) | yes | high |
| explicit iterator class | O(1) | yes | low |

Run the script from the shell and count the matches:

{F}bash
python pipeline.py | wc -l
{F}

That is all you need to get started; the standard library's `itertools` does the rest.
""",
        tags=("python", "iterators"),
        category="programming",
    ),
    Post(
        "restaurant-app-menu-tags-author",
        "Designing a restaurant app: menu, tags and author pages",
        "2023-02-03",
        f"""We rebuilt the ordering app of a small restaurant chain. Each of its screens became a
section of this write-up, and each one has the code that made it work.

## Menu

The menu is a list of dishes grouped by course. The front end renders it from JSON:

{F}javascript
export function renderMenu(courses) {{
  return courses
    .map((course) => `<h3>${{course.name}}</h3>` + course.dishes.map(renderDish).join(""))
    .join("\\n");
}}
{F}

## Tags

Dishes carry tags (vegan, spicy, gluten-free). The back end stores them as a bit set:

{F}rust
bitflags::bitflags! {{
    pub struct Tags: u8 {{
        const VEGAN = 0b001;
        const SPICY = 0b010;
        const GLUTEN_FREE = 0b100;
    }}
}}
{F}

## Author

Every recipe has an author, the chef who wrote it. The query that lists a chef's recipes:

{F}sql
SELECT r.title, r.created_at
FROM recipe AS r
JOIN chef AS c ON c.id = r.author_id
WHERE c.slug = 'maria'
ORDER BY r.created_at DESC;
{F}

## Comments

Guests leave comments on dishes. We moderate them with a tiny classifier:

{F}python
def needs_review(comment: str) -> bool:
    words = comment.lower().split()
    return any(word in BLOCKLIST for word in words) or len(words) > 400
{F}

## Related

Related dishes are the ones that share the most tags. That was the last feature we shipped, and
the one guests use the most.
""",
        tags=("design", "rust", "javascript"),
        category="programming",
    ),
    Post(
        "terminal-escapes-backspace",
        "Terminal escapes and the backspace character",
        "2023-03-10",
        f"""Old man pages underline words by printing a character, a backspace and an underscore:
the text "b\bbo\bol\bld" came out bold on a line printer. Some of that survives in the files
we still read today.

To strip it, drop every backspace together with the character before it:

{F}c
size_t strip_overstrike(char *s) {{
    size_t out = 0;
    for (size_t i = 0; s[i]; i++) {{
        if (s[i] == '\\b') {{ if (out) out--; }}
        else s[out++] = s[i];
    }}
    s[out] = '\\0';
    return out;
}}
{F}

The `col` utility does the same from the shell:

{F}bash
man ls | col -b > ls.txt
{F}

Nowadays terminals use escape sequences instead, but the backspace trick is still in `less`.
""",
        tags=("unix", "c"),
        category="systems",
    ),
    Post(
        "zeitzonen-richtig-behandeln",
        "Zeitzonen richtig behandeln",
        "2023-04-22",
        f"""Wer Termine speichert, sollte drei Regeln beachten:

1. Zeitpunkte immer in UTC speichern.
2. Die Zeitzone des Nutzers getrennt ablegen, als IANA-Name wie `Europe/Berlin`.
3. Erst bei der Anzeige umrechnen.

Mit der Standardbibliothek von Python geht das ohne Zusatzpakete:

{F}python
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

jetzt = datetime.now(timezone.utc)
print(jetzt.astimezone(ZoneInfo("Europe/Berlin")).isoformat())
{F}

Besonders tückisch ist die Sommerzeit: Am letzten Sonntag im Oktober gibt es die Stunde
zwischen zwei und drei Uhr zweimal. Ein gespeicherter UTC-Zeitpunkt ist trotzdem eindeutig.
""",
        tags=("python", "zeit"),
        category="programming",
    ),
    Post(
        "hiddouki-shori-no-kihon",
        "非同期処理の基本",
        "2023-05-30",
        f"""JavaScript の非同期処理は、コールバック、Promise、async/await の順に進化してきました。
この記事では同じ処理を二つの書き方で比べます。

まず Promise を使った書き方です。

{F}javascript
fetch("/api/items")
  .then((res) => res.json())
  .then((items) => console.log(items.length))
  .catch((err) => console.error(err));
{F}

同じ処理を async/await で書くと、上から下へ読めるようになります。

{F}javascript
async function countItems() {{
  const res = await fetch("/api/items");
  const items = await res.json();
  return items.length;
}}
{F}

エラー処理は try/catch でまとめて書けるので、読みやすさが大きく向上します。
""",
        tags=("javascript", "日本語"),
        category="programming",
    ),
    Post(
        "quick-note-release",
        "Quick note",
        "2023-06-01",
        """Shipped version 2.1 of the log viewer today. The release notes are on the project page.
""",
        tags=("releases",),
        category="news",
    ),
    Post(
        "comparing-storage-engines",
        "Comparing storage engines",
        "2023-07-14",
        f"""We benchmarked three embedded storage engines for a metrics collector that writes
about forty thousand points a second.

| engine | writes/s | reads/s | disk after 1 day |
|---|---|---|---|
| SQLite (WAL) | 38,000 | 120,000 | 2.1 GB |
| LMDB | 55,000 | 410,000 | 2.8 GB |
| RocksDB | 91,000 | 160,000 | 1.4 GB |

Latency percentiles tell a different story than the averages:

| engine | p50 | p99 | p99.9 |
|---|---|---|---|
| SQLite (WAL) | 0.2 ms | 3 ms | 40 ms |
| LMDB | 0.1 ms | 0.4 ms | 2 ms |
| RocksDB | 0.1 ms | 9 ms | 120 ms |

The collector's configuration for the winning engine:

{F}yaml
storage:
  engine: lmdb
  map_size: 64GiB
  sync: every_second
{F}

We chose LMDB: reads dominate our dashboards, and its tail latency is the flattest.
""",
        tags=("databases", "benchmarks"),
        category="systems",
    ),
    Post(
        "code-review-checklist",
        "A checklist for code review",
        "2023-08-09",
        f"""A review goes faster when both sides know what will be looked at. Ours:

- **Correctness**
  - Does the change do what the description says?
  - Are the error paths tested?
    - timeouts
    - partial writes
- **Readability**
  - Names say what, comments say why.
  - No function longer than a screen.
- **Operations**
  1. Is there a metric for the new path?
  2. Can it be turned off without a deploy?

A small example of an error path that often goes untested:

{F}go
func save(w io.Writer, data []byte) error {{
	n, err := w.Write(data)
	if err != nil {{
		return fmt.Errorf("save: %w", err)
	}}
	if n < len(data) {{
		return io.ErrShortWrite
	}}
	return nil
}}
{F}

Print the list, keep it next to the keyboard, and review the reviewer now and then.
""",
        tags=("process", "go"),
        category="practice",
    ),
    Post(
        "hello-world-seven-languages",
        "Hello world in seven languages",
        "2023-09-18",
        f"""The first program, seven times.

Go:

{F}go
package main

import "fmt"

func main() {{ fmt.Println("hello, world") }}
{F}

Rust:

{F}rust
fn main() {{
    println!("hello, world");
}}
{F}

C:

{F}c
#include <stdio.h>

int main(void) {{
    puts("hello, world");
    return 0;
}}
{F}

Java:

{F}java
public class Hello {{
    public static void main(String[] args) {{
        System.out.println("hello, world");
    }}
}}
{F}

Ruby:

{F}ruby
puts "hello, world"
{F}

Haskell:

{F}haskell
main :: IO ()
main = putStrLn "hello, world"
{F}

And SQL, because why not:

{F}sql
SELECT 'hello, world' AS greeting;
{F}
""",
        tags=("go", "rust", "c"),
        category="programming",
    ),
    Post(
        "regulyarnye-vyrazheniya",
        "Регулярные выражения без боли",
        "2023-10-05",
        f"""Регулярные выражения пугают новичков, но большинство задач решается пятью приёмами:
классы символов, квантификаторы, группы, якоря и именованные группы.

Разберём дату в формате ГГГГ-ММ-ДД с именованными группами:

{F}python
import re

DATE = re.compile(r"(?P<year>\\d{{4}})-(?P<month>\\d{{2}})-(?P<day>\\d{{2}})")
match = DATE.search("Релиз вышел 2023-10-05.")
print(match.group("year"), match.group("month"))
{F}

Тот же поиск из командной строки:

{F}bash
grep -Eo '[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}' CHANGELOG.md | sort -u
{F}

Главное правило: пишите тесты на каждое выражение, особенно на граничные случаи.
""",
        tags=("python", "regex"),
        category="programming",
    ),
    Post(
        "reading-large-csv-in-chunks",
        "Reading a large CSV file in chunks",
        "2023-11-11",
        f"""A CSV of twenty gigabytes does not fit in memory, but it does not need to.

## Contents

- [Counting rows](#counting-rows)
- [Aggregating by chunk](#aggregating-by-chunk)

## Counting rows

The `csv` module reads one row at a time:

{F}python
import csv

with open("events.csv", newline="") as handle:
    rows = sum(1 for _ in csv.reader(handle))
print(rows)
{F}

## Aggregating by chunk

With pandas, `chunksize` turns the reader into an iterator of data frames:

{F}python
import pandas as pd

totals = None
for chunk in pd.read_csv("events.csv", chunksize=1_000_000):
    part = chunk.groupby("country")["amount"].sum()
    totals = part if totals is None else totals.add(part, fill_value=0)
print(totals.sort_values(ascending=False).head())
{F}

Both stay under a few hundred megabytes whatever the file's size.
""",
        tags=("python", "data"),
        category="data",
    ),
    Post(
        "medir-rendimiento-api",
        "Cómo medir el rendimiento de una API",
        "2024-01-20",
        f"""Antes de optimizar, hay que medir. Estas son las herramientas que uso para saber si una
API responde a tiempo.

Primero, una prueba de carga sencilla con `hey`:

{F}bash
hey -n 2000 -c 50 https://api.example.org/v1/items
{F}

El resultado que guardo para comparar entre versiones:

{F}json
{{
  "requests": 2000,
  "p50_ms": 18,
  "p99_ms": 140,
  "errors": 0
}}
{F}

Con estos números a la vista, cada cambio se discute con datos y no con impresiones.
""",
        tags=("apis", "rendimiento"),
        category="practice",
    ),
    Post(
        "dockerfile-tips",
        "Five Dockerfile tips for smaller images",
        "2024-02-29",
        f"""Small images pull faster and have fewer vulnerabilities. Five habits get you most of
the way:

1. Start from a slim or distroless base.
2. Use multi-stage builds.
3. Order layers from least to most often changed.
4. Clean package caches in the same layer.
5. Run as a non-root user.

A multi-stage build for a Go service:

{F}dockerfile
FROM golang:1.22 AS build
WORKDIR /src
COPY . .
RUN CGO_ENABLED=0 go build -o /out/server ./cmd/server

FROM gcr.io/distroless/static
COPY --from=build /out/server /server
USER nonroot
ENTRYPOINT ["/server"]
{F}

And the compose file that runs it next to its database:

{F}yaml
services:
  server:
    build: .
    ports: ["8080:8080"]
  db:
    image: postgres:16
{F}
""",
        tags=("docker", "go"),
        category="systems",
    ),
    Post(
        "sqlite-bendi-huancun",
        "使用 SQLite 做本地缓存",
        "2024-03-15",
        f"""很多命令行工具需要缓存网络请求的结果。与其自己写文件格式，不如直接使用 SQLite。

建表语句如下：

{F}sql
CREATE TABLE IF NOT EXISTS cache (
    key TEXT PRIMARY KEY,
    value BLOB NOT NULL,
    expires_at INTEGER NOT NULL
);
{F}

读取时顺便清理过期的条目：

{F}python
def get(conn, key, now):
    conn.execute("DELETE FROM cache WHERE expires_at < ?", (now,))
    row = conn.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None
{F}

这样一个文件就能保存所有缓存，备份和删除都很方便。
""",
        tags=("sqlite", "中文"),
        category="data",
    ),
    Post(
        "til-git-switch",
        "TIL: git switch -",
        "2024-04-10",
        """`git switch -` goes back to the branch you were on before.
""",
        tags=("git",),
        category="news",
    ),
    Post(
        "kyou-no-memo",
        "今日のメモ",
        "2024-04-12",
        """ビルドが三倍速くなった。
""",
        tags=("日本語",),
        category="news",
    ),
    Post(
        "rust-vs-go-field-report",
        "Rust vs Go | A field report - part 2",
        "2024-05-02",
        f"""Part one compared build times. This part is about what it felt like to ship the same
service twice. (Updated on 2024-06-01 with the memory figures.)

## Share

Sharing state between threads is where the two languages differ most. Rust makes you say who
owns what:

{F}rust
let counter = Arc::new(Mutex::new(0));
let c = Arc::clone(&counter);
thread::spawn(move || *c.lock().unwrap() += 1);
{F}

## Related posts

Go lets goroutines share memory freely, and the race detector finds the mistakes later:

{F}go
var mu sync.Mutex
go func() {{ mu.Lock(); counter++; mu.Unlock() }}()
{F}

## Author's note

Both services now run side by side; the Rust one uses 40% less memory, the Go one was written in
half the time.
""",
        tags=("rust", "go"),
        category="programming",
    ),
    Post(
        "unfinished-thoughts",
        "Unfinished thoughts",
        "2024-04-01",
        """This draft is not published: no generator may output it.
""",
        draft=True,
    ),
)

ABOUT = Post(
    "about",
    "About",
    "2023-01-01",
    """This site is a notebook of small programming lessons, written to test site generators.
It is not a post: it is a page.
""",
)

#: Where each post lives on a docs site (``section/slug``).
DOC_SECTIONS = {
    "python-generators-tour": "guide",
    "restaurant-app-menu-tags-author": "guide",
    "terminal-escapes-backspace": "guide",
    "zeitzonen-richtig-behandeln": "guide",
    "hiddouki-shori-no-kihon": "guide",
    "quick-note-release": "reference",
    "comparing-storage-engines": "reference",
    "code-review-checklist": "reference",
    "hello-world-seven-languages": "reference",
    "regulyarnye-vyrazheniya": "reference",
    "reading-large-csv-in-chunks": "reference",
    "medir-rendimiento-api": "appendix",
    "dockerfile-tips": "appendix",
    "sqlite-bendi-huancun": "appendix",
    "til-git-switch": "appendix",
    "kyou-no-memo": "appendix",
    "rust-vs-go-field-report": "appendix",
}


def published() -> tuple[Post, ...]:
    return tuple(p for p in POSTS if not p.draft)
