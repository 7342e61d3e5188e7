package stdlib

import "testing"

// Huge widths, line spacings and columns end with the run's budget
// before the text is laid out.
func TestCalendarBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import calendar\ncalendar.month(2024, 2, w=10 ** 9)",
		"import calendar\ncalendar.month(2024, 2, l=10 ** 12)",
		"import calendar\ncalendar.calendar(2024, w=10 ** 5, l=10 ** 5)",
		"import calendar\ncalendar.calendar(2024, c=10 ** 10)",
		"import calendar\ncalendar.calendar(2024, m=10 ** 10)",
		"import calendar\ncalendar.weekheader(10 ** 10)",
		"import calendar\ncalendar.formatstring(['a'] * 10, 10 ** 9)",
		"import calendar\ncalendar.TextCalendar().formatyear(2024, 10 ** 5, 10 ** 5)",
		"import calendar\nfor _ in range(10 ** 6):\n    calendar.Calendar().yeardatescalendar(2024)",
	)
}
