from typing import Tuple

DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def day_of_year(y: int, m: int, d: int) -> int:
    return sum(DAYS_IN_MONTH[: m - 1]) + d + (1 if m > 2 and is_leap(y) else 0)


def days_since_epoch(date: Tuple[int, int, int]) -> int:
    y, m, d = date
    days = sum(366 if is_leap(yr) else 365 for yr in range(1970, y))
    return days + day_of_year(y, m, d) - 1


def weekday(date: Tuple[int, int, int]) -> str:
    names = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
    return names[days_since_epoch(date) % 7]


print([y for y in range(1896, 1925) if is_leap(y)])
print(is_leap(2000), is_leap(1900), is_leap(2024))
print(day_of_year(2024, 3, 1), day_of_year(2023, 12, 31))
for date in [(1970, 1, 1), (2000, 1, 1), (2024, 2, 29), (2038, 1, 19)]:
    print(date, days_since_epoch(date), weekday(date))
print(days_since_epoch((2024, 12, 25)) - days_since_epoch((2024, 1, 1)))
