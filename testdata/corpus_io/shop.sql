CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, email TEXT UNIQUE);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL DEFAULT 0);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), product_id INTEGER NOT NULL REFERENCES products(id), qty INTEGER NOT NULL, day TEXT NOT NULL);
INSERT INTO customers VALUES (1, 'Ada', 'London', 'ada@example.com'), (2, 'Brian', 'Paris', 'brian@example.com'), (3, 'Chen', 'Berlin', NULL), (4, 'Dana', 'London', 'dana@example.com');
INSERT INTO products VALUES (1, 'widget', 2.5, 100), (2, 'gadget', 10.0, 20), (3, 'gizmo', 99.9, 3);
INSERT INTO orders VALUES (1, 1, 1, 12, '2026-01-03'), (2, 2, 2, 3, '2026-01-03'), (3, 1, 2, 5, '2026-01-04'), (4, 3, 1, 20, '2026-01-05'), (5, 4, 3, 1, '2026-01-06'), (6, 1, 3, 2, '2026-01-07'), (7, 2, 1, 9, '2026-01-07');
