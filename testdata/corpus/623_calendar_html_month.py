import calendar

html = calendar.HTMLCalendar(calendar.SUNDAY).formatmonth(2024, 6)
lines = html.splitlines()
print(len(lines))
print(lines[0])
print(lines[1])
print(lines[2])
print(html.count("<td"), html.count('class="noday"'))
text = calendar.TextCalendar().formatmonth(2024, 6, 3, 1)
print(text)
print(calendar.week([(0, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)], 2))
