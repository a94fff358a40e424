"""Make docs/report-demo.png: the top of the report of ``run_all.py --demo``'s data, kept small.

    python scripts/report_screenshot.py [--data-dir DIR] [--output docs/report-demo.png]

Runs the demo into a temporary folder (it builds the report at its end), screenshots the report
with headless Chromium (Playwright driving the system's or Playwright's own Chromium), and
reduces the PNG to a 64-colour palette (a few hundred KB becomes well under 150 KB).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_demo(data_dir: Path) -> Path:
    """Run the demo into ``data_dir``; return its report."""
    subprocess.run(
        [sys.executable, "run_all.py", "--demo", "--no-live", "--data-dir", str(data_dir)],
        cwd=ROOT,
        check=True,
        timeout=600,
    )
    report = data_dir / "report" / "index.html"
    if not report.is_file():
        raise SystemExit(f"the demo wrote no report at {report}")
    return report


def screenshot(report: Path, output: Path, width: int, height: int) -> None:
    """Screenshot the top ``width`` x ``height`` of the report as a palette PNG."""
    from PIL import Image
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from harvest.browser.install import find_browser

    browser_info = find_browser()
    if browser_info is None:
        raise SystemExit("no Chromium found (apt-get install chromium, or playwright install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=browser_info.executable,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(report.as_uri())
            png = page.screenshot()
        finally:
            browser.close()
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    output.parent.mkdir(parents=True, exist_ok=True)
    image.save(output, optimize=True)
    print(f"{output}: {output.stat().st_size / 1024:.0f} KB")


def main() -> None:
    """Run the demo (or use --data-dir) and write the screenshot."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data-dir", type=Path, help="report this data folder (rebuilt) instead of running the demo"
    )
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "report-demo.png")
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--height", type=int, default=1300)
    args = parser.parse_args()
    if args.data_dir is not None:
        report = args.data_dir / "report" / "index.html"
        subprocess.run(
            [sys.executable, "-m", "scrapy", "report", "-s", f"HARVEST_DATA_DIR={args.data_dir}"],
            cwd=ROOT,
            check=True,
        )
        screenshot(report, args.output, args.width, args.height)
        return
    with tempfile.TemporaryDirectory(prefix="harvest-demo-shot-") as tmp:
        screenshot(run_demo(Path(tmp) / "data"), args.output, args.width, args.height)


if __name__ == "__main__":
    main()
