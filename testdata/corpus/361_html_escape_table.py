import html

rows = [
    {"name": "Widget <Pro>", "price": 19.5, "note": 'Say "hi" & smile'},
    {"name": "Tom's Gadget", "price": 5, "note": "<script>alert(1)</script>"},
    {"name": "Ünïcode ✓", "price": 0.25, "note": ""},
]

def cell(value, tag="td"):
    return f"<{tag}>{html.escape(str(value))}</{tag}>"

out = ["<table>", "  <tr>" + "".join(cell(h, "th") for h in ["Name", "Price", "Note"]) + "</tr>"]
for r in rows:
    out.append("  <tr>" + cell(r["name"]) + cell(f"${r['price']:.2f}") + cell(r["note"]) + "</tr>")
out.append("</table>")
print("\n".join(out))

title = 'Report for "Q3" & <beyond>'
print(f'<div title="{html.escape(title)}">{html.escape(title, quote=False)}</div>')
print(sum(line.count("&") for line in out), "entities written")
