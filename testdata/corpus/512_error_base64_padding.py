import base64

# Decode a list of tokens; the last one is broken and nothing catches it.
tokens = ["aGVsbG8=", "d29ybGQ=", base64.b64encode(b"agents").decode(), "YWJj"]
for t in tokens:
    print(t, "->", base64.b64decode(t).decode())
print(base64.a85encode(b"ascii85 too"), base64.a85decode(base64.a85encode(b"round trip")))
print(base64.b32encode(b"pad me"), base64.urlsafe_b64encode(b"\xfb\xff"))
try:
    base64.b64decode("abc")
except base64.binascii.Error as e:
    print("caught:", e, isinstance(e, ValueError))
base64.b64decode("abcde")
