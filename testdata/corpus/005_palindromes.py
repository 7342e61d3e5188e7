def is_palindrome(text: str) -> bool:
    """Return True if text reads the same backwards, ignoring case and non-letters.

    >>> is_palindrome("A man, a plan, a canal: Panama")
    True
    """
    cleaned = [ch.lower() for ch in text if ch.isalnum()]
    return cleaned == cleaned[::-1]


assert is_palindrome("A man, a plan, a canal: Panama")
assert is_palindrome("")
assert not is_palindrome("hello")
assert is_palindrome("Ésope reste ici et se repose") is False

cases = ["racecar", "Was it a car or a cat I saw?", "No lemon, no melon", "été", "ab", "日本日"]
for c in cases:
    print(f"{c!r:35} {is_palindrome(c)}")
print("done")
