import re
import string

TEXT = """Contact alice.smith@example.com or bob@corp.io for access.
Call +1 (555) 123-4567 or 555.987.6543 after 5pm.
Ticket ref: AB-1234, cc: carol_99@mail.example.org"""

EMAIL = re.compile(r"([\w.]+)@([\w-]+(?:\.[\w-]+)+)")
PHONE = re.compile(r"(?:\+\d\s)?\(?\d{3}\)?[\s.-]\d{3}[.-]\d{4}")


def mask_email(m):
    user, domain = m.group(1), m.group(2)
    return user[0] + "*" * (len(user) - 1) + "@" + domain


redacted, n_email = EMAIL.subn(mask_email, TEXT)
redacted, n_phone = PHONE.subn("[phone]", redacted)
print(redacted)
print(f"masked {n_email} emails and {n_phone} phone numbers")

domains = sorted({m.group(2) for m in EMAIL.finditer(TEXT)})
print("domains:", domains)

tickets = re.sub(r"\b([A-Z]{2})-(\d+)\b", r"<\2:\1>", "see AB-1234 and CD-77")
print(tickets)
print(re.sub(r"(?P<word>\w+)@", r"\g<word> at ", "x@y z@w", count=1))

allowed = set(string.ascii_letters + string.digits + "-_")
slug = "".join(c if c in allowed else "-" for c in "Release Notes: v2.0 (final)!")
print(re.sub(r"-{2,}", "-", slug).strip("-").lower())
print(re.escape("1.5*2+[x]"))
