# tilework shell integration for fish: marks each prompt, command line,
# output and exit status with OSC 133, so tilework knows where commands
# begin and end. In ~/.config/fish/config.fish:
#   tilework shell-integration fish | source
if status is-interactive; and not set -q __tilework_si
    set -g __tilework_si 1
    if functions -q fish_prompt
        functions -c fish_prompt __tilework_fish_prompt
    else
        function __tilework_fish_prompt
            printf '%s> ' (prompt_pwd)
        end
    end
    function fish_prompt
        printf '\e]133;A\a'
        __tilework_fish_prompt
        printf '\e]133;B\a'
    end
    function __tilework_preexec --on-event fish_preexec
        printf '\e]133;C\a'
    end
    function __tilework_postexec --on-event fish_postexec
        printf '\e]133;D;%s\a' $status
    end
end
