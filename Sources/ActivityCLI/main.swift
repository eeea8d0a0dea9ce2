print("activity: not built yet")
