"""A miniature test framework: test classes discovered by name, assertions, a summary."""


class AssertionFailure(Exception):
    pass


class TestCase:
    def assert_equal(self, a, b):
        if a != b:
            raise AssertionFailure(f"{a!r} != {b!r}")

    def assert_raises(self, exc, fn, *args):
        try:
            fn(*args)
        except exc:
            return
        raise AssertionFailure(f"{exc.__name__} not raised")

    @classmethod
    def run(cls):
        results = []
        for name in sorted(vars(cls)):
            if name.startswith("test_"):
                try:
                    getattr(cls(), name)()
                    results.append((name, "ok"))
                except AssertionFailure as e:
                    results.append((name, f"FAIL: {e}"))
                except Exception as e:
                    results.append((name, f"ERROR: {type(e).__name__}: {e}"))
        return results


class TestMath(TestCase):
    def test_add(self):
        self.assert_equal(1 + 1, 2)

    def test_div(self):
        self.assert_raises(ZeroDivisionError, lambda: 1 / 0)

    def test_wrong(self):
        self.assert_equal(sorted([3, 1]), [3, 1])

    def test_crash(self):
        {}["key"]

    def test_not_raised(self):
        self.assert_raises(ValueError, int, "12")

    def helper(self):
        raise RuntimeError("not a test")


for name, outcome in TestMath.run():
    print(f"{name:<16}{outcome}")
print(sum(o == "ok" for _, o in TestMath.run()), "passed")
