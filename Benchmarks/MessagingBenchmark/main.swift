print("messaging benchmark: not yet")
