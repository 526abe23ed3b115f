print("zzloaded")
