folder = "reports"
name = "q1"
print(rf"C:\data\{folder}\{name}.csv")
print(fr"\n is not a newline in {name!r}")
print(Rf"{folder}\t{name}")
print(fR"\d+ matched in {folder}")
print(r"raw \n string", len(r"\n"), len("\n"))
print(r"C:\new\table")
print("escaped \\ backslash and \t tab")
print("unicode escapes: \u00e9 \u4e2d \U0001F600 \x41")
print(f"""triple {name}
spans lines""")
print(f'''{folder!r} inside triple single''')
pattern = rf"^{name}_\d{{4}}\.txt$"
print(pattern)
