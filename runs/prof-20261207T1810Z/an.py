import re,sys,collections
snaps=[];cur=None
for l in open(sys.argv[1] if len(sys.argv) > 1 else 'base/host-threads.log'):
    if l.startswith('==='): cur={'t':int(l.split()[1]),'thr':{}}; snaps.append(cur)
    elif l.startswith('cpu '): f=list(map(int,l.split()[1:])); cur['busy']=sum(f)-f[3]-f[4]; cur['all']=sum(f)
    elif l.startswith('T '): _,p,t,u,s=l.split(); cur['thr'][(p,t)]=int(u)+int(s)
jobs=[]
st={}
for l in open(sys.argv[2] if len(sys.argv) > 2 else 'base/host0.tap.log'):
    m=re.match(r'=== T (start|end) (\S+) (\S+) (\d+)',l)
    if m:
        k=(m[2],m[3])
        if m[1]=='start': st[k]=int(m[4])
        else: jobs.append((k,st[k],int(m[4])))
def at(t):
    best=min(snaps,key=lambda s:abs(s['t']-t)); return best
for k,a,b in jobs:
    s0=at(a+1); s1=at(b-1); dt=s1['t']-s0['t']
    if dt<=0: continue
    busy=(s1['busy']-s0['busy'])/(s1['all']-s0['all'])*2
    th=sorted(((s1['thr'].get(x,0)-v)/100/dt,x) for x,v in s0['thr'].items())[::-1][:8]
    print(k, 'dt',dt,'host cores busy %.2f'%busy, ' '.join('%s/%s:%.2f'%(x[0],x[1],c) for c,x in th))
