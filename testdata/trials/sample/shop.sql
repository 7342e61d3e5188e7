CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, city TEXT);
CREATE TABLE products(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL NOT NULL, status TEXT NOT NULL, created TEXT NOT NULL);
INSERT INTO customers VALUES (1,'Ana Lima','ana@example.com','Lyon'),(2,'Ben Ode','ben@example.com','Paris'),(3,'Chloé Roy','chloe@example.com','Lyon'),(4,'Dan Wu','dan@example.com','Nantes'),(5,'Eva Sand','eva@example.com','Paris');
INSERT INTO products VALUES (1,'Rake',19.9,12),(2,'Hose 20m',34.5,0),(3,'Seeds, tomato',3.2,140),(4,'Gloves',9.9,0),(5,'Wheelbarrow',89.0,3),(6,'Shears',24.0,7),(7,'Compost 40l',12.5,0);
INSERT INTO orders VALUES (1040,1,54.4,'shipped','2026-02-27'),(1041,2,89.0,'shipped','2026-02-28'),(1042,3,19.9,'open','2026-03-01'),(1043,1,12.5,'shipped','2026-03-01'),(1044,4,123.5,'open','2026-03-01'),(1045,5,9.9,'cancelled','2026-03-02'),(1046,2,48.0,'open','2026-03-02'),(1047,3,34.5,'open','2026-03-02');
