package atomicfile

const sysRenameat2 = 276 // renameat2 on linux/arm64
