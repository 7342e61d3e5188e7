import datetime


def parse_date(text):
    """Parse 2026-03-02 or 02/03/2026."""
    if "/" in text:
        day, month, year = text.split("/")
        return datetime.date(int(year), int(month), int(day))
    return datetime.date.fromisoformat(text)


def slug(title):
    return "-".join(title.lower().split())
