"""Perl's POD rendered by core Perl's ``Pod::Simple::HTMLBatch``: the held-out ``pod2html`` sources.

    python bench/heldout/write_sources.py pod2html

A small Perl distribution, ``Small-Lessons``, as CPAN authors document one: ``lib/Small/Lessons.pm``
(the main module: the About text as its DESCRIPTION, then three real subs, each with its POD
under FUNCTIONS), ``lib/Small/Lessons/Index.pm`` (a small class with its methods' POD) and one
POD-only module per post, ``lib/Small/Lessons/<Section>/<Module>.pod`` (the docs sections; the
module name the slug in CamelCase; the install page ``Small::Lessons::Guide::Install`` first), as
a distribution's manuals and cookbooks are (``Moose::Manual::*``, ``DBIx::Class::Manual::*``).

A post's POD: ``=encoding UTF-8``; ``=head1 NAME`` (``Small::Lessons::Guide::PythonGeneratorsTour -
Generators in Python: a practical tour``: the module's name, a hyphen, the title, the line
``perlpodstyle`` asks for); ``=head1 DATE`` (``Published 2023-01-15.``: POD has no date field,
so the date is written in the text, as some CPAN authors give a release date a section; none on
the install page); ``=head1 DESCRIPTION`` with the post's text (its ``##`` sections as
``=head2``); ``=head1 AUTHOR`` and ``=head1 COPYRIGHT AND LICENSE``, as every CPAN module ends.
Markdown becomes POD: fenced code an indented verbatim paragraph (POD names no language: the
fence's name is dropped; a blank line inside the code stays, and Pod::Simple joins the verbatim
paragraphs it separates into one ``<pre>``), lists ``=over 4`` / ``=item *`` (or ``=item 1.``)
/ ``=back``, nested lists an ``=over`` inside the item, inline code ``C<...>`` (``C<< ... >>``
when it holds an angle bracket), strong ``B<...>``, links ``L<text|url>``, an in-page link a
section link ``L<text|/"Heading">``. POD has no tables: a table is written as a definition list,
each row an ``=item`` named by its first cell and the other cells a paragraph ``column: value;
...``. ``<`` and ``>`` in the text are ``E<lt>`` and ``E<gt>``. POD has no tags, categories,
drafts or feeds: the draft is left out.
"""

from __future__ import annotations

import re

from corpus import ABOUT, DOC_SECTIONS, published
from write_sources import INSTALL_TITLE, _fresh, _write

SECTIONS = ("guide", "reference", "appendix")
ROOT = "Small::Lessons"

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)]+)\)")
_FENCE = re.compile(r"^```(\w*)\s*$")
_ITEM = re.compile(r"^( *)(?:([-*])|(\d+)\.) (.*)$")

TAIL = """=head1 AUTHOR

Ana Lima E<lt>ana@example.orgE<gt>

=head1 COPYRIGHT AND LICENSE

This documentation is dedicated to the public domain (CC0 1.0).

=cut
"""


def module_name(slug: str) -> str:
    """A post's module name: its slug in CamelCase (``python-generators-tour`` is
    ``PythonGeneratorsTour``)."""
    return "".join(part.capitalize() for part in slug.split("-"))


def _escape(text: str) -> str:
    return text.replace("<", "E<lt>").replace(">", "E<gt>")


def _code(text: str) -> str:
    if "<" in text or ">" in text:
        return f"C<< {text} >>"
    return f"C<{text}>"


def inline(text: str, headings: dict[str, str] | None = None) -> str:
    """One line of Markdown's inline markup in POD's. ``headings``: anchor -> heading text."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(_escape(text[pos : m.start()]))
        if m.group(1) is not None:
            out.append(_code(m.group(1)))
        elif m.group(2) is not None:
            out.append(f"B<{_escape(m.group(2))}>")
        else:
            label, url = m.group(3), m.group(4)
            if url.startswith("#") and headings and url[1:] in headings:
                out.append(f'L<{_escape(label)}|/"{headings[url[1:]]}">')
            else:
                out.append(f"L<{_escape(label)}|{url}>")
        pos = m.end()
    out.append(_escape(text[pos:]))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _headings(body: str) -> dict[str, str]:
    """The body's headings by the anchor a Markdown link would name (GitHub's slug)."""
    found = {}
    for text in re.findall(r"^#+ (.+)$", body, re.M):
        found[re.sub(r"[^\w]+", "-", text.lower()).strip("-")] = text
    return found


def _list(lines: list[str], i: int, headings: dict[str, str]) -> tuple[list[str], int]:
    """A Markdown list (items at the indent of ``lines[i]``, their sublists nested) as POD."""
    indent = len(_ITEM.match(lines[i]).group(1))  # type: ignore[union-attr]
    out = ["=over 4", ""]
    while i < len(lines) and (m := _ITEM.match(lines[i])) and len(m.group(1)) >= indent:
        if len(m.group(1)) > indent:
            sub, i = _list(lines, i, headings)
            out += sub
            continue
        mark = "*" if m.group(2) else f"{m.group(3)}."
        out += [f"=item {mark}", "", inline(m.group(4), headings), ""]
        i += 1
    out += ["=back", ""]
    return out, i


def body_pod(body: str) -> str:
    """A post's Markdown body in POD."""
    headings = _headings(body)
    lines = body.strip("\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            i += 1
            while not lines[i].startswith("```"):
                out.append(f"    {lines[i]}" if lines[i] else "")
                i += 1
            i += 1
            out.append("")
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out += [f"=head{level} {inline(line[level:].strip())}", ""]
            i += 1
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.fullmatch(r"\|[-:| ]+\|", lines[i].strip()):
                    rows.append(_cells(lines[i]))
                i += 1
            head, *rest = rows
            out += ["=over 4", ""]
            for row in rest:
                pairs = "; ".join(f"{inline(h)}: {inline(c)}" for h, c in zip(head[1:], row[1:], strict=True))
                out += [f"=item {inline(row[0])}", "", pairs, ""]
            out += ["=back", ""]
            continue
        if _ITEM.match(line):
            sub, i = _list(lines, i, headings)
            out += sub
            continue
        if not line.strip():
            i += 1
            continue
        para = []
        while (
            i < len(lines)
            and lines[i].strip()
            and not _FENCE.match(lines[i])
            and not lines[i].startswith(("#", "|"))
            and not _ITEM.match(lines[i])
        ):
            para.append(inline(lines[i], headings))
            i += 1
        out += para + [""]
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def post_pod(module: str, title: str, date: str | None, body: str) -> str:
    """A post's POD file: NAME, DATE, DESCRIPTION (the text), AUTHOR, COPYRIGHT AND LICENSE."""
    dated = f"=head1 DATE\n\nPublished {date}.\n\n" if date else ""
    return (
        f"=encoding UTF-8\n\n=head1 NAME\n\n{module} - {title}\n\n{dated}=head1 DESCRIPTION\n\n{body}\n{TAIL}"
    )


INSTALL = """The tool ships for Python and Node.js; pick one.

With pip:

    pip install lessons-cli

With npm:

    npm install --global lessons-cli

B<Warning: Python 3.10 or later.> Older versions lack C<zoneinfo>; the tool refuses to start on them.

B<Note:> the configuration lives in F<~/.config/lessons/config.toml>:

    [output]
    color = true

Check the installation:

    lessons --version

Then read L<Small::Lessons::Guide::PythonGeneratorsTour>, the first lesson.
"""

MAIN = f"""package Small::Lessons;

use strict;
use warnings;
use utf8;

use Exporter 'import';

our $VERSION   = '1.0.0';
our @EXPORT_OK = qw(slugify reading_time excerpt);

=encoding UTF-8

=head1 NAME

Small::Lessons - a notebook of small programming lessons

=head1 VERSION

Version 1.0.0

=head1 SYNOPSIS

    use Small::Lessons qw(slugify reading_time);

    my $slug    = slugify('Rust vs Go | A field report - part 2');
    my $minutes = reading_time($text);

=head1 DESCRIPTION

{ABOUT.body.strip()}

The lessons are the manual pages of this distribution: L<Small::Lessons::Guide::Install> first,
then the Guide, the Reference and the Appendix. L<Small::Lessons::Index> keeps them in order.

=head1 FUNCTIONS

Nothing is exported unless asked for.

=head2 slugify

    my $slug = slugify($title);

Turns a title into the last part of a URL: letters and digits of any script are kept (lower-cased),
every run of other characters becomes one hyphen, and no hyphen begins or ends the result.

=cut

sub slugify {{
    my ($title) = @_;
    my $slug = lc $title;
    $slug =~ s/[^\\p{{L}}\\p{{N}}]+/-/g;
    $slug =~ s/\\A-+|-+\\z//g;
    return $slug;
}}

=head2 reading_time

    my $minutes = reading_time($text);
    my $minutes = reading_time($text, $words_per_minute);

Estimates how long a text takes to read, in whole minutes, at least one. Words are runs of
characters between spaces; C<$words_per_minute> is 200 unless given.

=cut

sub reading_time {{
    my ($text, $per_minute) = @_;
    $per_minute ||= 200;
    my $words = () = $text =~ /\\S+/g;
    my $minutes = int(($words + $per_minute - 1) / $per_minute);
    return $minutes < 1 ? 1 : $minutes;
}}

=head2 excerpt

    my $excerpt = excerpt($body, length => 160, ellipsis => '…');

The first paragraph of a text, cut at a word boundary; C<length> is the longest excerpt in
characters (160), C<ellipsis> what ends an excerpt that was cut.

=cut

sub excerpt {{
    my ($body, %options) = @_;
    my $length = $options{{length}}   // 160;
    my $more   = $options{{ellipsis}} // '…';
    my ($first) = split /\\n\\s*\\n/, $body =~ s/\\A\\s+//r;
    $first = join ' ', split ' ', $first // '';
    return $first if length $first <= $length;
    my $cut = rindex $first, ' ', $length;
    return substr($first, 0, $cut < 0 ? $length : $cut) . $more;
}}

=head1 SEE ALSO

L<Small::Lessons::Index>, L<perlpod>, L<Pod::Simple::HTMLBatch>

{TAIL}
1;
"""

INDEX = f"""package Small::Lessons::Index;

use strict;
use warnings;

=encoding UTF-8

=head1 NAME

Small::Lessons::Index - the lessons of a site, newest first, looked up by tag

=head1 SYNOPSIS

    use Small::Lessons::Index;

    my $index = Small::Lessons::Index->new;
    $index->add({{ slug => 'quick-note', title => 'Quick note', date => '2023-06-01', tags => ['releases'] }});
    print $_->{{title}}, "\\n" for $index->by_tag('releases');

=head1 METHODS

=head2 new

    my $index = Small::Lessons::Index->new(@lessons);

A new index holding C<@lessons> (hash references with C<slug>, C<title>, C<date> and C<tags>),
each added by L</add>.

=cut

sub new {{
    my ($class, @lessons) = @_;
    my $self = bless {{ lessons => [] }}, $class;
    $self->add($_) for @lessons;
    return $self;
}}

=head2 add

    $index->add($lesson);

Adds a lesson, or replaces the one with the same slug; returns the index itself, to chain calls.

=cut

sub add {{
    my ($self, $lesson) = @_;
    my @kept = grep {{ $_->{{slug}} ne $lesson->{{slug}} }} @{{ $self->{{lessons}} }};
    $self->{{lessons}} = [ sort {{ $b->{{date}} cmp $a->{{date}} }} @kept, $lesson ];
    return $self;
}}

=head2 by_tag

    my @lessons = $index->by_tag($tag);

The lessons with a tag, newest first; possibly none.

=cut

sub by_tag {{
    my ($self, $tag) = @_;
    return grep {{ my $l = $_; grep {{ $_ eq $tag }} @{{ $l->{{tags}} }} }} @{{ $self->{{lessons}} }};
}}

=head2 newest

    my @lessons = $index->newest($count);

At most C<$count> (5) of the newest lessons, newest first.

=cut

sub newest {{
    my ($self, $count) = @_;
    $count //= 5;
    my @all = @{{ $self->{{lessons}} }};
    return @all[ 0 .. ($count > @all ? @all : $count) - 1 ];
}}

=head1 SEE ALSO

L<Small::Lessons>

{TAIL}
1;
"""


def pod2html() -> None:
    """``lib/Small/Lessons.pm`` (About, the API), ``lib/Small/Lessons/Index.pm`` and
    ``lib/Small/Lessons/<Section>/<Module>.pod`` per published post (the install page first)."""
    src = _fresh("pod2html")
    lib = src / "lib" / "Small"
    _write(lib / "Lessons.pm", MAIN)
    _write(lib / "Lessons" / "Index.pm", INDEX)
    _write(
        lib / "Lessons" / "Guide" / "Install.pod",
        post_pod(f"{ROOT}::Guide::Install", INSTALL_TITLE, None, INSTALL),
    )
    for p in published():
        section = DOC_SECTIONS[p.slug].capitalize()
        name = module_name(p.slug)
        _write(
            lib / "Lessons" / section / f"{name}.pod",
            post_pod(f"{ROOT}::{section}::{name}", p.title, p.date, body_pod(p.body)),
        )
