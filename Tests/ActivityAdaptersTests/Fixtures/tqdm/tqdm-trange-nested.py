import time
from tqdm import trange
for e in trange(3, desc="outer"):
    for s in trange(25, desc="inner"):
        time.sleep(0.01)
print("done")
