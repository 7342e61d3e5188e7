const r = await fetch("http://127.0.0.1:1/x", { method: "POST", headers: { Host: "evil.example" } }).catch(e => console.log("err", e.message, e.cause?.message));
