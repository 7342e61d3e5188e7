package pyrt

// fullCase is the case mapping of kind (toUpper, toLower, toTitle, toFold)
// of a character some mapping of which is more than one character, as
// CPython 3.11 has them (Unicode 14's SpecialCasing, unconditional
// entries, and CaseFolding's full foldings); "" for any other character.
// A switch, not a table built at start: it costs nothing until used.
// TestStrMethodsUnicode checks it against CPython.
func fullCase(kind int, r rune) string {
	switch r {
	case 0xdf:
		return [4]string{"SS", "\u00df", "Ss", "ss"}[kind]
	case 0x130:
		return [4]string{"\u0130", "i\u0307", "\u0130", "i\u0307"}[kind]
	case 0x149:
		return [4]string{"\u02bcN", "\u0149", "\u02bcN", "\u02bcn"}[kind]
	case 0x1f0:
		return [4]string{"J\u030c", "\u01f0", "J\u030c", "j\u030c"}[kind]
	case 0x390:
		return [4]string{"\u0399\u0308\u0301", "\u0390", "\u0399\u0308\u0301", "\u03b9\u0308\u0301"}[kind]
	case 0x3b0:
		return [4]string{"\u03a5\u0308\u0301", "\u03b0", "\u03a5\u0308\u0301", "\u03c5\u0308\u0301"}[kind]
	case 0x587:
		return [4]string{"\u0535\u0552", "\u0587", "\u0535\u0582", "\u0565\u0582"}[kind]
	case 0x1e96:
		return [4]string{"H\u0331", "\u1e96", "H\u0331", "h\u0331"}[kind]
	case 0x1e97:
		return [4]string{"T\u0308", "\u1e97", "T\u0308", "t\u0308"}[kind]
	case 0x1e98:
		return [4]string{"W\u030a", "\u1e98", "W\u030a", "w\u030a"}[kind]
	case 0x1e99:
		return [4]string{"Y\u030a", "\u1e99", "Y\u030a", "y\u030a"}[kind]
	case 0x1e9a:
		return [4]string{"A\u02be", "\u1e9a", "A\u02be", "a\u02be"}[kind]
	case 0x1e9e:
		return [4]string{"\u1e9e", "\u00df", "\u1e9e", "ss"}[kind]
	case 0x1f50:
		return [4]string{"\u03a5\u0313", "\u1f50", "\u03a5\u0313", "\u03c5\u0313"}[kind]
	case 0x1f52:
		return [4]string{"\u03a5\u0313\u0300", "\u1f52", "\u03a5\u0313\u0300", "\u03c5\u0313\u0300"}[kind]
	case 0x1f54:
		return [4]string{"\u03a5\u0313\u0301", "\u1f54", "\u03a5\u0313\u0301", "\u03c5\u0313\u0301"}[kind]
	case 0x1f56:
		return [4]string{"\u03a5\u0313\u0342", "\u1f56", "\u03a5\u0313\u0342", "\u03c5\u0313\u0342"}[kind]
	case 0x1f80:
		return [4]string{"\u1f08\u0399", "\u1f80", "\u1f88", "\u1f00\u03b9"}[kind]
	case 0x1f81:
		return [4]string{"\u1f09\u0399", "\u1f81", "\u1f89", "\u1f01\u03b9"}[kind]
	case 0x1f82:
		return [4]string{"\u1f0a\u0399", "\u1f82", "\u1f8a", "\u1f02\u03b9"}[kind]
	case 0x1f83:
		return [4]string{"\u1f0b\u0399", "\u1f83", "\u1f8b", "\u1f03\u03b9"}[kind]
	case 0x1f84:
		return [4]string{"\u1f0c\u0399", "\u1f84", "\u1f8c", "\u1f04\u03b9"}[kind]
	case 0x1f85:
		return [4]string{"\u1f0d\u0399", "\u1f85", "\u1f8d", "\u1f05\u03b9"}[kind]
	case 0x1f86:
		return [4]string{"\u1f0e\u0399", "\u1f86", "\u1f8e", "\u1f06\u03b9"}[kind]
	case 0x1f87:
		return [4]string{"\u1f0f\u0399", "\u1f87", "\u1f8f", "\u1f07\u03b9"}[kind]
	case 0x1f88:
		return [4]string{"\u1f08\u0399", "\u1f80", "\u1f88", "\u1f00\u03b9"}[kind]
	case 0x1f89:
		return [4]string{"\u1f09\u0399", "\u1f81", "\u1f89", "\u1f01\u03b9"}[kind]
	case 0x1f8a:
		return [4]string{"\u1f0a\u0399", "\u1f82", "\u1f8a", "\u1f02\u03b9"}[kind]
	case 0x1f8b:
		return [4]string{"\u1f0b\u0399", "\u1f83", "\u1f8b", "\u1f03\u03b9"}[kind]
	case 0x1f8c:
		return [4]string{"\u1f0c\u0399", "\u1f84", "\u1f8c", "\u1f04\u03b9"}[kind]
	case 0x1f8d:
		return [4]string{"\u1f0d\u0399", "\u1f85", "\u1f8d", "\u1f05\u03b9"}[kind]
	case 0x1f8e:
		return [4]string{"\u1f0e\u0399", "\u1f86", "\u1f8e", "\u1f06\u03b9"}[kind]
	case 0x1f8f:
		return [4]string{"\u1f0f\u0399", "\u1f87", "\u1f8f", "\u1f07\u03b9"}[kind]
	case 0x1f90:
		return [4]string{"\u1f28\u0399", "\u1f90", "\u1f98", "\u1f20\u03b9"}[kind]
	case 0x1f91:
		return [4]string{"\u1f29\u0399", "\u1f91", "\u1f99", "\u1f21\u03b9"}[kind]
	case 0x1f92:
		return [4]string{"\u1f2a\u0399", "\u1f92", "\u1f9a", "\u1f22\u03b9"}[kind]
	case 0x1f93:
		return [4]string{"\u1f2b\u0399", "\u1f93", "\u1f9b", "\u1f23\u03b9"}[kind]
	case 0x1f94:
		return [4]string{"\u1f2c\u0399", "\u1f94", "\u1f9c", "\u1f24\u03b9"}[kind]
	case 0x1f95:
		return [4]string{"\u1f2d\u0399", "\u1f95", "\u1f9d", "\u1f25\u03b9"}[kind]
	case 0x1f96:
		return [4]string{"\u1f2e\u0399", "\u1f96", "\u1f9e", "\u1f26\u03b9"}[kind]
	case 0x1f97:
		return [4]string{"\u1f2f\u0399", "\u1f97", "\u1f9f", "\u1f27\u03b9"}[kind]
	case 0x1f98:
		return [4]string{"\u1f28\u0399", "\u1f90", "\u1f98", "\u1f20\u03b9"}[kind]
	case 0x1f99:
		return [4]string{"\u1f29\u0399", "\u1f91", "\u1f99", "\u1f21\u03b9"}[kind]
	case 0x1f9a:
		return [4]string{"\u1f2a\u0399", "\u1f92", "\u1f9a", "\u1f22\u03b9"}[kind]
	case 0x1f9b:
		return [4]string{"\u1f2b\u0399", "\u1f93", "\u1f9b", "\u1f23\u03b9"}[kind]
	case 0x1f9c:
		return [4]string{"\u1f2c\u0399", "\u1f94", "\u1f9c", "\u1f24\u03b9"}[kind]
	case 0x1f9d:
		return [4]string{"\u1f2d\u0399", "\u1f95", "\u1f9d", "\u1f25\u03b9"}[kind]
	case 0x1f9e:
		return [4]string{"\u1f2e\u0399", "\u1f96", "\u1f9e", "\u1f26\u03b9"}[kind]
	case 0x1f9f:
		return [4]string{"\u1f2f\u0399", "\u1f97", "\u1f9f", "\u1f27\u03b9"}[kind]
	case 0x1fa0:
		return [4]string{"\u1f68\u0399", "\u1fa0", "\u1fa8", "\u1f60\u03b9"}[kind]
	case 0x1fa1:
		return [4]string{"\u1f69\u0399", "\u1fa1", "\u1fa9", "\u1f61\u03b9"}[kind]
	case 0x1fa2:
		return [4]string{"\u1f6a\u0399", "\u1fa2", "\u1faa", "\u1f62\u03b9"}[kind]
	case 0x1fa3:
		return [4]string{"\u1f6b\u0399", "\u1fa3", "\u1fab", "\u1f63\u03b9"}[kind]
	case 0x1fa4:
		return [4]string{"\u1f6c\u0399", "\u1fa4", "\u1fac", "\u1f64\u03b9"}[kind]
	case 0x1fa5:
		return [4]string{"\u1f6d\u0399", "\u1fa5", "\u1fad", "\u1f65\u03b9"}[kind]
	case 0x1fa6:
		return [4]string{"\u1f6e\u0399", "\u1fa6", "\u1fae", "\u1f66\u03b9"}[kind]
	case 0x1fa7:
		return [4]string{"\u1f6f\u0399", "\u1fa7", "\u1faf", "\u1f67\u03b9"}[kind]
	case 0x1fa8:
		return [4]string{"\u1f68\u0399", "\u1fa0", "\u1fa8", "\u1f60\u03b9"}[kind]
	case 0x1fa9:
		return [4]string{"\u1f69\u0399", "\u1fa1", "\u1fa9", "\u1f61\u03b9"}[kind]
	case 0x1faa:
		return [4]string{"\u1f6a\u0399", "\u1fa2", "\u1faa", "\u1f62\u03b9"}[kind]
	case 0x1fab:
		return [4]string{"\u1f6b\u0399", "\u1fa3", "\u1fab", "\u1f63\u03b9"}[kind]
	case 0x1fac:
		return [4]string{"\u1f6c\u0399", "\u1fa4", "\u1fac", "\u1f64\u03b9"}[kind]
	case 0x1fad:
		return [4]string{"\u1f6d\u0399", "\u1fa5", "\u1fad", "\u1f65\u03b9"}[kind]
	case 0x1fae:
		return [4]string{"\u1f6e\u0399", "\u1fa6", "\u1fae", "\u1f66\u03b9"}[kind]
	case 0x1faf:
		return [4]string{"\u1f6f\u0399", "\u1fa7", "\u1faf", "\u1f67\u03b9"}[kind]
	case 0x1fb2:
		return [4]string{"\u1fba\u0399", "\u1fb2", "\u1fba\u0345", "\u1f70\u03b9"}[kind]
	case 0x1fb3:
		return [4]string{"\u0391\u0399", "\u1fb3", "\u1fbc", "\u03b1\u03b9"}[kind]
	case 0x1fb4:
		return [4]string{"\u0386\u0399", "\u1fb4", "\u0386\u0345", "\u03ac\u03b9"}[kind]
	case 0x1fb6:
		return [4]string{"\u0391\u0342", "\u1fb6", "\u0391\u0342", "\u03b1\u0342"}[kind]
	case 0x1fb7:
		return [4]string{"\u0391\u0342\u0399", "\u1fb7", "\u0391\u0342\u0345", "\u03b1\u0342\u03b9"}[kind]
	case 0x1fbc:
		return [4]string{"\u0391\u0399", "\u1fb3", "\u1fbc", "\u03b1\u03b9"}[kind]
	case 0x1fc2:
		return [4]string{"\u1fca\u0399", "\u1fc2", "\u1fca\u0345", "\u1f74\u03b9"}[kind]
	case 0x1fc3:
		return [4]string{"\u0397\u0399", "\u1fc3", "\u1fcc", "\u03b7\u03b9"}[kind]
	case 0x1fc4:
		return [4]string{"\u0389\u0399", "\u1fc4", "\u0389\u0345", "\u03ae\u03b9"}[kind]
	case 0x1fc6:
		return [4]string{"\u0397\u0342", "\u1fc6", "\u0397\u0342", "\u03b7\u0342"}[kind]
	case 0x1fc7:
		return [4]string{"\u0397\u0342\u0399", "\u1fc7", "\u0397\u0342\u0345", "\u03b7\u0342\u03b9"}[kind]
	case 0x1fcc:
		return [4]string{"\u0397\u0399", "\u1fc3", "\u1fcc", "\u03b7\u03b9"}[kind]
	case 0x1fd2:
		return [4]string{"\u0399\u0308\u0300", "\u1fd2", "\u0399\u0308\u0300", "\u03b9\u0308\u0300"}[kind]
	case 0x1fd3:
		return [4]string{"\u0399\u0308\u0301", "\u1fd3", "\u0399\u0308\u0301", "\u03b9\u0308\u0301"}[kind]
	case 0x1fd6:
		return [4]string{"\u0399\u0342", "\u1fd6", "\u0399\u0342", "\u03b9\u0342"}[kind]
	case 0x1fd7:
		return [4]string{"\u0399\u0308\u0342", "\u1fd7", "\u0399\u0308\u0342", "\u03b9\u0308\u0342"}[kind]
	case 0x1fe2:
		return [4]string{"\u03a5\u0308\u0300", "\u1fe2", "\u03a5\u0308\u0300", "\u03c5\u0308\u0300"}[kind]
	case 0x1fe3:
		return [4]string{"\u03a5\u0308\u0301", "\u1fe3", "\u03a5\u0308\u0301", "\u03c5\u0308\u0301"}[kind]
	case 0x1fe4:
		return [4]string{"\u03a1\u0313", "\u1fe4", "\u03a1\u0313", "\u03c1\u0313"}[kind]
	case 0x1fe6:
		return [4]string{"\u03a5\u0342", "\u1fe6", "\u03a5\u0342", "\u03c5\u0342"}[kind]
	case 0x1fe7:
		return [4]string{"\u03a5\u0308\u0342", "\u1fe7", "\u03a5\u0308\u0342", "\u03c5\u0308\u0342"}[kind]
	case 0x1ff2:
		return [4]string{"\u1ffa\u0399", "\u1ff2", "\u1ffa\u0345", "\u1f7c\u03b9"}[kind]
	case 0x1ff3:
		return [4]string{"\u03a9\u0399", "\u1ff3", "\u1ffc", "\u03c9\u03b9"}[kind]
	case 0x1ff4:
		return [4]string{"\u038f\u0399", "\u1ff4", "\u038f\u0345", "\u03ce\u03b9"}[kind]
	case 0x1ff6:
		return [4]string{"\u03a9\u0342", "\u1ff6", "\u03a9\u0342", "\u03c9\u0342"}[kind]
	case 0x1ff7:
		return [4]string{"\u03a9\u0342\u0399", "\u1ff7", "\u03a9\u0342\u0345", "\u03c9\u0342\u03b9"}[kind]
	case 0x1ffc:
		return [4]string{"\u03a9\u0399", "\u1ff3", "\u1ffc", "\u03c9\u03b9"}[kind]
	case 0xfb00:
		return [4]string{"FF", "\ufb00", "Ff", "ff"}[kind]
	case 0xfb01:
		return [4]string{"FI", "\ufb01", "Fi", "fi"}[kind]
	case 0xfb02:
		return [4]string{"FL", "\ufb02", "Fl", "fl"}[kind]
	case 0xfb03:
		return [4]string{"FFI", "\ufb03", "Ffi", "ffi"}[kind]
	case 0xfb04:
		return [4]string{"FFL", "\ufb04", "Ffl", "ffl"}[kind]
	case 0xfb05:
		return [4]string{"ST", "\ufb05", "St", "st"}[kind]
	case 0xfb06:
		return [4]string{"ST", "\ufb06", "St", "st"}[kind]
	case 0xfb13:
		return [4]string{"\u0544\u0546", "\ufb13", "\u0544\u0576", "\u0574\u0576"}[kind]
	case 0xfb14:
		return [4]string{"\u0544\u0535", "\ufb14", "\u0544\u0565", "\u0574\u0565"}[kind]
	case 0xfb15:
		return [4]string{"\u0544\u053b", "\ufb15", "\u0544\u056b", "\u0574\u056b"}[kind]
	case 0xfb16:
		return [4]string{"\u054e\u0546", "\ufb16", "\u054e\u0576", "\u057e\u0576"}[kind]
	case 0xfb17:
		return [4]string{"\u0544\u053d", "\ufb17", "\u0544\u056d", "\u0574\u056d"}[kind]
	}
	return ""
}
