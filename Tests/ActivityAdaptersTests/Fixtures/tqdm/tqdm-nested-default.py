import time
from tqdm import tqdm
for i in tqdm(range(3), desc="outer"):
    for j in tqdm(range(50), desc="inner", position=1, leave=False):
        time.sleep(0.004)
print("done")
