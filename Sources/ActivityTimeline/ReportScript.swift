/// The report's script: details on hover and click (or Enter), zoom (buttons, Ctrl or ⌘ with
/// the wheel), and axis ticks for the zoomed view. It only reads the page: the report is
/// complete without it (tables, bars, ticks), which is also what prints.
///
/// The tick rules mirror ``TimeAxis``.
enum ReportScript {
    static let javascript = #"""
        (function(){"use strict";
        var D=JSON.parse(document.getElementById("activity-data").textContent);
        var tl=document.querySelector(".tl"),sc=document.querySelector(".tl-scroll"),ax=document.querySelector(".axis");
        var tip=document.getElementById("tip"),panel=document.getElementById("details");
        var total=+tl.dataset.duration,zoom=1,maxZoom=Math.max(1,Math.min(2000,total/0.0005));
        var steps=[];for(var d=1e-6;d<10;d*=10){steps.push(d,2*d,5*d);}
        steps.push(20,30,60,120,300,600,900,1800,3600,7200,14400,28800,86400);
        function esc(s){return String(s).replace(/[&<>"']/g,function(c){return{"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c];});}
        function dec(s){var n=0;while(s<0.999999&&n<6){s*=10;n++;}return n;}
        function two(n){return n<10?"0"+n:""+n;}
        function label(t,step){if(t===0)return"0";if(step<1)return(t*1000).toFixed(dec(step*1000))+" ms";
        if(t<60)return t.toFixed(dec(step))+" s";var w=Math.round(t);
        return w<3600?Math.floor(w/60)+" m "+two(w%60)+" s":Math.floor(w/3600)+" h "+two(Math.floor(w%3600/60))+" m";}
        function ticks(){if(!(total>0))return;var width=tl.clientWidth,want=total/Math.max(1,width/90),step=steps[steps.length-1];
        for(var i=0;i<steps.length;i++){if(steps[i]>=want){step=steps[i];break;}}
        var from=sc.scrollLeft/width*total,to=(sc.scrollLeft+sc.clientWidth)/width*total,h="";
        for(var k=Math.max(0,Math.floor(from/step));k*step<=Math.min(total,to)+1e-9;k++){var t=k*step;
        h+='<div class="tick'+((total-t)/total*width<80?" end":"")+'" style="left:'+(t/total*100)+'%"><span>'+label(t,step)+"</span></div>";}ax.innerHTML=h;}
        function render(e,full){var h='<h3 class="st-'+e.s+'">'+esc(e.t)+"</h3><dl>";
        e.d.forEach(function(p){h+="<dt>"+esc(p[0])+"</dt><dd>"+esc(p[1])+"</dd>";});h+="</dl>";
        if(full&&e.l&&e.l.length)h+='<pre class="log">'+e.l.map(esc).join("\n")+"</pre>";return h;}
        function bar(t){return t&&t.closest?t.closest(".bar"):null;}
        tl.addEventListener("mousemove",function(ev){var b=bar(ev.target);if(!b){tip.hidden=true;return;}
        tip.innerHTML=render(D[+b.dataset.k],false);tip.hidden=false;var x=ev.clientX+14,y=ev.clientY+14;
        if(x+tip.offsetWidth>innerWidth-8)x=ev.clientX-tip.offsetWidth-14;if(y+tip.offsetHeight>innerHeight-8)y=ev.clientY-tip.offsetHeight-14;
        tip.style.left=Math.max(8,x)+"px";tip.style.top=Math.max(8,y)+"px";});
        tl.addEventListener("mouseleave",function(){tip.hidden=true;});
        function select(b){var o=tl.querySelector(".bar.sel");if(o)o.classList.remove("sel");b.classList.add("sel");
        panel.innerHTML=render(D[+b.dataset.k],true);}
        tl.addEventListener("click",function(ev){var b=bar(ev.target);if(b)select(b);});
        tl.addEventListener("keydown",function(ev){var b=bar(ev.target);if(b&&(ev.key==="Enter"||ev.key===" ")){ev.preventDefault();select(b);}});
        function setZoom(z,px){var at=(sc.scrollLeft+px)/tl.clientWidth;zoom=Math.min(maxZoom,Math.max(1,z));
        tl.style.width=(zoom*100)+"%";sc.scrollLeft=at*tl.clientWidth-px;
        document.getElementById("zoom-level").textContent=zoom<10?zoom.toFixed(1)+"×":Math.round(zoom)+"×";ticks();}
        document.getElementById("zoom-in").onclick=function(){setZoom(zoom*2,sc.clientWidth/2);};
        document.getElementById("zoom-out").onclick=function(){setZoom(zoom/2,sc.clientWidth/2);};
        document.getElementById("zoom-fit").onclick=function(){setZoom(1,0);};
        sc.addEventListener("wheel",function(ev){if(!(ev.ctrlKey||ev.metaKey))return;ev.preventDefault();
        setZoom(zoom*Math.pow(1.0015,-ev.deltaY),ev.clientX-sc.getBoundingClientRect().left);},{passive:false});
        sc.addEventListener("scroll",ticks);addEventListener("resize",ticks);ticks();
        document.documentElement.dataset.ready="1";})();
        """#
}
