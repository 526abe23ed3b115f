// Code, which Nextra runs and docschat never does: the pages then go by name, Alpha first.
export default Object.fromEntries([['zeta', 'Zeta first'], ['alpha', 'Alpha']])
