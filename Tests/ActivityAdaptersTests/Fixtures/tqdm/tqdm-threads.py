import threading
import time
from tqdm import tqdm


def work(p):
    for i in tqdm(range(30 + 10 * p), desc=f"w{p}", position=p):
        time.sleep(0.02 * (p + 1))


threads = [threading.Thread(target=work, args=(p,)) for p in range(3)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("all")
