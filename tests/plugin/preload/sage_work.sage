# Sage work on ZZ[x], GF(p)[x] and integer matrices, for scripts/sage-check: products, exact
# division, powers, resultants, determinants and ranks. Prints a line a result (a short hash of
# large ones), which must be the same without and with the FLINT plugin.
from hashlib import sha256

def digest(value):
    return sha256(str(value).encode()).hexdigest()[:16]

set_random_seed(20261128)

R.<x> = ZZ[]
f = R.random_element(degree=3000, x=-2^200, y=2^200)
g = R.random_element(degree=2000, x=-2^200, y=2^200)
fg = f * g
print("ZZ[x] product", digest(fg))
print("ZZ[x] exact division", fg // g == f)
print("ZZ[x] square", digest(g^2))
print("ZZ[x] power", digest(R.random_element(degree=300, x=-2^20, y=2^20)^8))
print("ZZ[x] truncated product", digest(f.mod(x^1000) * g.mod(x^1000) % x^1000))
a = R.random_element(degree=60, x=-100, y=100)
b = R.random_element(degree=50, x=-100, y=100)
print("ZZ[x] resultant", digest(a.resultant(b)))
print("ZZ[x] gcd", digest(gcd(fg, g * (x + 1))))

p = next_prime(2^61)
S.<y> = GF(p)[]
u = S.random_element(degree=5000)
v = S.random_element(degree=4000)
print("GF(p)[x] product", digest(u * v))
print("GF(p)[x] exact division", (u * v) // v == u)
print("GF(p)[x] power mod", digest(pow(y + 1, p, u)))
print("GF(p)[x] resultant", digest(u.truncate(400).resultant(v.truncate(300))))
print("GF(p)[x] factor degrees", sorted(h.degree() for h, e in S.random_element(degree=300).factor()))

M = random_matrix(ZZ, 150, 150, x=-2^40, y=2^40)
N = random_matrix(ZZ, 150, 140, x=-2^40, y=2^40)
print("ZZ matrix product", digest(M * N))
print("ZZ matrix determinant", digest(M.det()))
print("ZZ matrix rank", (M * N).rank())
print("ZZ matrix solve", digest(M.solve_right(N.column(0))))
