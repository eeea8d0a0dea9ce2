import time
from tqdm import tqdm
for i in tqdm(range(3), desc="outer", mininterval=0, miniters=1):
    for j in tqdm(range(5), desc="inner", position=1, leave=False, mininterval=0, miniters=1):
        time.sleep(0.03)
print("done")
