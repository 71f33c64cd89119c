package atomicfile

const sysRenameat2 = 316 // renameat2 on linux/amd64
