# Writes a module with two 300x300 non-splat constants, their sum and product.
n = 300
values = ", ".join(
    "[" + ", ".join(f"{(i * n + j) % 7}.0" for j in range(n)) + "]"
    for i in range(n))
t = f"tensor<{n}x{n}xf32>"
print(f"""func.func @large() -> ({t}, {t}) {{
  %a = google.constant dense<[{values}]> : {t}
  %s = google.add %a, %a : {t}, {t} -> {t}
  %m = google.matmul %a, %a : {t}, {t} -> {t}
  return %s, %m : {t}, {t}
}}""")
