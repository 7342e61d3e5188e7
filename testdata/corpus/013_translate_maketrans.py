# Remove punctuation and map accented letters with str.translate
table = str.maketrans("áéíóúñ", "aeioun")
print("Señor José está aquí".translate(table))

strip_punct = str.maketrans("", "", ",.!?;:")
sentence = "Hello, world! How are you? Fine; thanks."
print(sentence.translate(strip_punct))

leet = str.maketrans({"a": "4", "e": "3", "o": "0", "s": "5"})
print("hackers use passwords".translate(leet))

dna = "ATGCGTTA"
complement = dna.translate(str.maketrans("ATGC", "TACG"))
print(dna, complement, complement[::-1])

both = str.maketrans("ab", "xy", "c")
print("abcabc".translate(both))

# A dict mapping ordinals to None deletes them
vowels_gone = {ord(v): None for v in "aeiou"}
print("translation table".translate(vowels_gone))
