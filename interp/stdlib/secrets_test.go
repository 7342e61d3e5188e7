package stdlib

import "testing"

// Huge tokens and many draws end with the run's budget, before the
// bytes are drawn.
func TestSecretsBounded(t *testing.T) {
	checkBounded(t, 1e6,
		"import secrets\nsecrets.token_bytes(10 ** 9)",
		"import secrets\nsecrets.token_hex(10 ** 8)",
		"import secrets\nsecrets.token_urlsafe(2 ** 40)",
		"import secrets\nsecrets.randbits(10 ** 10)",
		"import secrets\nfor _ in range(10 ** 7):\n    secrets.randbelow(10)",
		"import secrets\ns = 'ab' * 10 ** 5\nfor _ in range(10 ** 5):\n    secrets.choice(s)",
	)
}
