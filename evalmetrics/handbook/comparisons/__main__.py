"""``python -m evalmetrics.handbook.comparisons``: print the table of comparisons and a summary line."""

from __future__ import annotations

from . import compare_all, format_table

if __name__ == "__main__":
    results = compare_all()
    print(format_table(results))
    failed = [row.function for row in results if not row.agrees]
    print(f"\n{len(results)} comparisons; " + (f"outside tolerance: {', '.join(failed)}" if failed else "all agree"))
