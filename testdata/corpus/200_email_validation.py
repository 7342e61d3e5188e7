def is_valid_email(address: str) -> bool:
    """A simple check without regular expressions."""
    if address.count("@") != 1 or " " in address:
        return False
    local, domain = address.split("@")
    if not local or not domain or local[0] == "." or local[-1] == ".":
        return False
    if ".." in address:
        return False
    labels = domain.split(".")
    if len(labels) < 2 or not all(labels):
        return False
    if not labels[-1].isalpha() or len(labels[-1]) < 2:
        return False
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789-")
    return all(set(label.lower()) <= allowed for label in labels)


emails = ["user@example.com", "first.last@sub.domain.org", "bad@", "@bad.com", "two@@signs.com",
          "spa ce@x.com", "dots..here@x.com", "x@localhost", "ok@x.io", "trail.@x.com", "ünï@çödé.com", "a@b.c0"]
for e in emails:
    print(f"{e:<28} {'valid' if is_valid_email(e) else 'invalid'}")
print(sum(map(is_valid_email, emails)), "valid")
